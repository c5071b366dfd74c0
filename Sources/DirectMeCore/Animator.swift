/// A point on screen, in pixels.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  public var description: String { "(\(Int(x.rounded())), \(Int(y.rounded())))" }
}

/// A width and height in pixels.
public struct Size: Hashable, Sendable, Codable {
  public var width: Int
  public var height: Int
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}

/// One step of the sprite's animation: it moves from `from` to `to` between `start` and `end`.
public struct Keyframe: Hashable, Sendable {
  public var direction: Direction
  public var from: Point
  public var to: Point
  public var start: Double
  public var end: Double
}

/// Moves the sprite one keyframe per instruction, one after the other, never out of the
/// playfield. Pure: time is given, never read.
public struct Animator: Sendable {
  /// The area the sprite's centre may occupy.
  public let playfield: (min: Point, max: Point)
  public let step: Double
  public let keyframeDuration: Double
  public private(set) var keyframes: [Keyframe] = []
  private let origin: Point

  /// - Parameters:
  ///   - bounds: The window's size; the sprite starts in its centre.
  ///   - spriteSize: The sprite's size; it is kept wholly inside the window.
  ///   - step: Pixels per instruction.
  ///   - keyframeDuration: Seconds per instruction.
  ///   - covered: Rows at the window's top and bottom that panels cover: the sprite stays
  ///     clear of them.
  public init(
    bounds: Size, spriteSize: Size, step: Double = 100, keyframeDuration: Double = 0.5, covered: (top: Int, bottom: Int) = (0, 0)
  ) {
    let halfWidth = Double(spriteSize.width) / 2
    let halfHeight = Double(spriteSize.height) / 2
    let top = Double(covered.top) + halfHeight
    playfield = (
      Point(x: halfWidth, y: top),
      Point(x: max(halfWidth, Double(bounds.width) - halfWidth), y: max(top, Double(bounds.height - covered.bottom) - halfHeight))
    )
    origin = Point(x: Double(bounds.width) / 2, y: Double(bounds.height) / 2)
    self.step = step
    self.keyframeDuration = keyframeDuration
  }

  /// Where the sprite ends up once every queued keyframe has played.
  public var destination: Point { keyframes.last?.to ?? origin }

  /// The time the last keyframe ends (or `nil` with none).
  public var finishTime: Double? { keyframes.last?.end }

  /// Queues a move, starting at `time` or when the move before it ends, whichever is later.
  @discardableResult
  public mutating func enqueue(_ direction: Direction, at time: Double) -> Keyframe {
    let from = destination
    let offset = direction.offset
    let to = clamped(Point(x: from.x + Double(offset.dx) * step, y: from.y + Double(offset.dy) * step))
    let start = max(time, finishTime ?? time)
    let keyframe = Keyframe(direction: direction, from: from, to: to, start: start, end: start + keyframeDuration)
    keyframes.append(keyframe)
    return keyframe
  }

  /// The sprite's centre at `time`.
  public func position(at time: Double) -> Point {
    guard let current = keyframes.last(where: { $0.start <= time }) else { return origin }
    guard time < current.end, current.end > current.start else { return current.to }
    let progress = easeInOut((time - current.start) / (current.end - current.start))
    return Point(
      x: current.from.x + (current.to.x - current.from.x) * progress,
      y: current.from.y + (current.to.y - current.from.y) * progress)
  }

  /// Whether the sprite is moving (or has a move queued) at `time`.
  public func isAnimating(at time: Double) -> Bool {
    guard let finish = finishTime else { return false }
    return time < finish
  }

  /// Drops the finished keyframes before `time`, keeping the position.
  public mutating func discardFinished(before time: Double) {
    guard let lastFinished = keyframes.lastIndex(where: { $0.end <= time }) else { return }
    // Keep the last finished one: it holds the resting position.
    if lastFinished > 0 { keyframes.removeFirst(lastFinished) }
  }

  private func clamped(_ point: Point) -> Point {
    Point(
      x: min(max(point.x, playfield.min.x), playfield.max.x),
      y: min(max(point.y, playfield.min.y), playfield.max.y))
  }

  private func easeInOut(_ t: Double) -> Double {
    let t = min(max(t, 0), 1)
    return t * t * (3 - 2 * t)
  }
}
