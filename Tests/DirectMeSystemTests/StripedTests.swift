import Synchronization
import Testing

@testable import DirectMeSystem

@Suite("Work shared by threads, every n-th item each")
struct StripedTests {
  struct Broken: Error, Equatable { var index: Int }

  @Test("outcomes come back in the items' order, each item on its own thread's worker, each seen once")
  func mapsInOrder() throws {
    let seen = Mutex([Int]())
    let outcomes = try Striped.map(count: 10, parts: 3, worker: { part in part }, { part, index in
      // Thread p takes items p, p + 3, ...: its worker is the one made for it.
      #expect(index % 3 == part)
      return index * 2
    }) { index, _, done in
      seen.withLock { $0.append(index) }
      #expect(done >= 1 && done <= 10)
      return true
    }
    #expect(outcomes.map { try? $0?.get() } == (0..<10).map { $0 * 2 })
    #expect(seen.withLock { $0.sorted() } == Array(0..<10))
  }

  @Test("a failing item fails in its place, the others run; stopping leaves the rest not run")
  func failuresAndStopping() throws {
    let outcomes = Striped.map(count: 6, workers: ["a", "b"]) { _, index in
      if index == 3 { throw Broken(index: index) }
      return index
    }
    #expect(outcomes.compactMap { try? $0?.get() } == [0, 1, 2, 4, 5])
    guard case .failure(let error)? = outcomes[3] else {
      Issue.record("item 3 did not fail")
      return
    }
    #expect(error as? Broken == Broken(index: 3))
    // One thread, stopped at the first failure: the items after it are not run.
    let stopped = Striped.map(count: 6, workers: ["only"], { _, index in
      if index == 2 { throw Broken(index: index) }
      return index
    }) { _, outcome, _ in
      if case .failure = outcome { return false }
      return true
    }
    #expect(stopped.map { $0 == nil } == [false, false, false, true, true, true])
  }

  @Test("a worker that cannot be made ends the run with its error; more threads than items are not made")
  func workerFailure() {
    #expect(throws: Broken(index: -1)) {
      _ = try Striped.map(count: 4, parts: 2, worker: { part -> Int in
        if part == 1 { throw Broken(index: -1) }
        return part
      }, { worker, index in index })
    }
    let made = Mutex(0)
    let outcomes = try? Striped.map(count: 2, parts: 8, worker: { part in made.withLock { $0 += 1 } }, { _, index in index })
    #expect(made.withLock { $0 } == 2)
    #expect(outcomes?.count == 2)
  }
}
