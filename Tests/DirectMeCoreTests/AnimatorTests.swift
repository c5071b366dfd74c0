import Testing

@testable import DirectMeCore

@Suite("Animator")
struct AnimatorTests {
  let bounds = Size(width: 800, height: 600)
  let sprite = Size(width: 64, height: 64)

  @Test("starts in the centre and moves one step per instruction, one keyframe after another")
  func keyframes() {
    var animator = Animator(bounds: bounds, spriteSize: sprite, step: 100, keyframeDuration: 0.5)
    #expect(animator.position(at: 0) == Point(x: 400, y: 300))
    let first = animator.enqueue(.up, at: 1.0)
    let second = animator.enqueue(.right, at: 1.1)
    #expect(first.start == 1.0 && first.end == 1.5)
    #expect(second.start == 1.5 && second.end == 2.0)
    #expect(animator.position(at: 1.0) == Point(x: 400, y: 300))
    #expect(animator.position(at: 1.5) == Point(x: 400, y: 200))
    #expect(animator.position(at: 3) == Point(x: 500, y: 200))
    // Half way through the second keyframe it is half way (ease-in-out is symmetric).
    #expect(animator.position(at: 1.75) == Point(x: 450, y: 200))
    #expect(animator.isAnimating(at: 1.9))
    #expect(!animator.isAnimating(at: 2.0))
  }

  @Test("stays clear of the panels over the window's top and bottom")
  func coveredRows() {
    var animator = Animator(bounds: bounds, spriteSize: sprite, step: 100, covered: (top: 74, bottom: 96))
    #expect(animator.position(at: 0) == Point(x: 400, y: 300))
    for _ in 0..<5 { animator.enqueue(.up, at: 0) }
    // The sprite's top edge at the top bar's bottom edge.
    #expect(animator.destination == Point(x: 400, y: 74 + 32))
    for _ in 0..<10 { animator.enqueue(.down, at: 0) }
    #expect(animator.destination == Point(x: 400, y: 600 - 96 - 32))
  }

  @Test("never leaves the window")
  func clamping() {
    var animator = Animator(bounds: bounds, spriteSize: sprite, step: 100)
    for _ in 0..<10 { animator.enqueue(.left, at: 0) }
    for _ in 0..<10 { animator.enqueue(.up, at: 0) }
    #expect(animator.destination == Point(x: 32, y: 32))
    for _ in 0..<20 { animator.enqueue(.right, at: 0) }
    for _ in 0..<20 { animator.enqueue(.down, at: 0) }
    #expect(animator.destination == Point(x: 768, y: 568))
  }

  @Test("dropping finished keyframes keeps the position")
  func discard() {
    var animator = Animator(bounds: bounds, spriteSize: sprite)
    animator.enqueue(.down, at: 0)
    animator.enqueue(.down, at: 0)
    animator.discardFinished(before: 5)
    #expect(animator.keyframes.count == 1)
    #expect(animator.position(at: 6) == Point(x: 400, y: 500))
  }
}
