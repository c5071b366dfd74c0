#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

import Synchronization

/// A lock with a condition to wait on (a pthread mutex and condition variable), as
/// Foundation's `NSCondition`: `wait` is called holding the lock, which it gives up while waiting.
/// (A plain lock is the standard library's `Synchronization.Mutex`.)
public final class Condition: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  public init() {
    precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  public func lock() { pthread_mutex_lock(mutex) }
  public func unlock() { pthread_mutex_unlock(mutex) }

  /// `body`'s result, run holding the lock.
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Wakes one waiter.
  public func signal() { pthread_cond_signal(condition) }
  /// Wakes every waiter.
  public func broadcast() { pthread_cond_broadcast(condition) }
  /// Waits until signalled (or woken spuriously: check the state again).
  public func wait() { pthread_cond_wait(condition, mutex) }

  /// Waits until signalled or until `seconds` have passed; false when the time ran out.
  public func wait(seconds: Double) -> Bool {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let seconds = min(max(0, seconds), Self.longestWait)
    let whole = seconds.rounded(.down)
    var deadline = timespec(tv_sec: now.tv_sec + Int(whole), tv_nsec: now.tv_nsec + Int((seconds - whole) * 1e9))
    if deadline.tv_nsec >= 1_000_000_000 {
      deadline.tv_sec += 1
      deadline.tv_nsec -= 1_000_000_000
    }
    return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
  }

  /// The longest a timed wait waits (a year): longer ones would overflow the deadline.
  static let longestWait = 365 * 86_400.0
}

/// A value shared between threads behind a lock.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = Mutex(())
  private var stored: Value
  public init(_ value: Value) { stored = value }
  public var value: Value {
    get { lock.withLock { _ in stored } }
    set { lock.withLock { _ in stored = newValue } }
  }
  /// Changes the value under the lock.
  public func update(_ body: (inout Value) -> Void) { lock.withLock { _ in body(&stored) } }
  /// A part of the value, read under the lock. (`value` copies the whole value out: for a
  /// value holding an array that another thread then writes under the lock, the write copies
  /// the array while that copy lives.)
  public func read<Part>(_ body: (Value) -> Part) -> Part { lock.withLock { _ in body(stored) } }
}

/// Carries a value that is handed to exactly one other thread.
public struct UncheckedBox<Value>: @unchecked Sendable {
  public let value: Value
  public init(_ value: Value) { self.value = value }
}

/// Sleeps the calling thread for `seconds` (nothing when not positive).
public func sleep(seconds: Double) {
  guard seconds > 0 else { return }
  let seconds = min(seconds, Condition.longestWait)
  let whole = seconds.rounded(.down)
  var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
  var remaining = timespec()
  while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
