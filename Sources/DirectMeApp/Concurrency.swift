import Dispatch
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// A queue between two threads; `pop` waits for an item, `nil` once closed and empty.
public final class BlockingQueue<Element>: @unchecked Sendable {
  private let condition = Condition()
  private var items: [Element] = []
  private var head = 0
  private var closed = false

  public init() {}

  public func push(_ item: Element) {
    condition.lock()
    items.append(item)
    condition.signal()
    condition.unlock()
  }

  /// Appends `items` at once (one wake-up of a waiting `pop`).
  public func push(contentsOf newItems: [Element]) {
    condition.lock()
    items.append(contentsOf: newItems)
    condition.signal()
    condition.unlock()
  }

  /// The next item; `nil` once closed and empty, or after `timeout` seconds without one.
  public func pop(timeout: Double? = nil) -> Element? {
    condition.lock()
    defer { condition.unlock() }
    let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
    while head == items.count && !closed {
      if let deadline {
        if !condition.wait(seconds: deadline.timeIntervalSinceNow) { return nil }
      } else {
        condition.wait()
      }
    }
    guard head < items.count else { return nil }
    let item = items[head]
    head += 1
    if head > 1024 {
      items.removeFirst(head)
      head = 0
    }
    return item
  }

  public func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  public var isClosed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return closed && head == items.count
  }
}

/// Turns SIGINT and SIGTERM into a call of `handler` on a background queue.
public final class SignalWatcher: @unchecked Sendable {
  private var sources: [DispatchSourceSignal] = []

  public init(handler: @escaping @Sendable () -> Void) {
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler(handler: handler)
      source.resume()
      sources.append(source)
    }
  }

  deinit {
    for source in sources { source.cancel() }
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}
