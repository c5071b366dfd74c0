import Dispatch

/// Work on a list of items shared by several threads, each taking every n-th item (of n
/// threads, thread p takes items p, p + n, p + 2n, ...: neighbouring items, often alike in
/// cost, go to different threads) with a worker of its own (a recognizer: one thread at a
/// time may use each). DirectMe's parallel loops over recordings (scoring, tuning, the
/// benchmarks) run this way; they differ in what a failure does, which `each` decides.
public enum Striped {
  /// The outcome of each of `count` items, in their order: `work(worker, index)` on `parts`
  /// threads at once (no more than there are items, at least one), thread p with the worker
  /// `worker(p)` makes for it on that thread. `each(index, outcome, done)` sees every outcome
  /// as it comes, one call at a time (the place to draw a progress bar and print messages),
  /// with how many items are done; when it returns false every thread stops before its next
  /// item, and the items not run are nil. A worker that cannot be made leaves its thread's
  /// items nil, and its error is thrown once the other threads are done.
  public static func map<Worker, Output>(
    count: Int, parts: Int, worker: (_ part: Int) throws -> Worker,
    _ work: (Worker, _ index: Int) throws -> Output,
    each: (_ index: Int, _ outcome: Result<Output, any Error>, _ done: Int) -> Bool = { _, _, _ in true }
  ) throws -> [Result<Output, any Error>?] {
    let parts = max(1, min(parts, count))
    // Outcomes are the caller's values, not Sendable: they are written and read under the lock.
    let state = Locked(State<Output>(count: count))
    try withoutActuallyEscaping(worker) { worker in
      try withoutActuallyEscaping(work) { work in
        try withoutActuallyEscaping(each) { each in
          // The closures and workers are the caller's: each worker is used by its thread only,
          // and `each` is called under the lock (concurrentPerform asks for Sendable captures,
          // which non-escaping closures cannot be; hence the box).
          let shared = UncheckedBox((worker: worker, work: work, each: each))
          DispatchQueue.concurrentPerform(iterations: parts) { part in
            let made: Worker
            do {
              made = try shared.value.worker(part)
            } catch {
              state.update { $0.failure = $0.failure ?? error }
              return
            }
            for index in stride(from: part, to: count, by: parts) {
              if state.read(\.stopped) { return }
              let outcome = Result { try shared.value.work(made, index) }
              state.update { state in
                state.outcomes[index] = outcome
                state.done += 1
                if !shared.value.each(index, outcome, state.done) { state.stopped = true }
              }
            }
          }
          if let failure = state.read(\.failure) { throw failure }
        }
      }
    }
    return state.value.outcomes
  }

  /// The same with workers made already, one per thread (`workers.count` threads at most).
  public static func map<Worker, Output>(
    count: Int, workers: [Worker], _ work: (Worker, _ index: Int) throws -> Output,
    each: (_ index: Int, _ outcome: Result<Output, any Error>, _ done: Int) -> Bool = { _, _, _ in true }
  ) -> [Result<Output, any Error>?] {
    precondition(!workers.isEmpty, "at least one worker")
    // Making a worker that exists cannot fail.
    return try! map(count: count, parts: workers.count, worker: { workers[$0] }, work, each: each)
  }

  private struct State<Output> {
    var outcomes: [Result<Output, any Error>?]
    var done = 0
    var stopped = false
    var failure: (any Error)?
    init(count: Int) { outcomes = Array(repeating: nil, count: count) }
  }
}
