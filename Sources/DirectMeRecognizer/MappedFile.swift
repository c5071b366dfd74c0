#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Files the process has mapped into memory (read from `/proc/self/maps`).
enum MappedFile {
  /// Lets the kernel take back the resident pages of every read-only mapping of `path`: they
  /// are the file's, unchanged, and come back from the page cache when next read. pocketsphinx
  /// maps a model's `mdef` (2.9 MB for en-us) and reads all of it once while loading
  /// (building its senone tables), then only the few senone sequences the grammar's words
  /// use; each decoder maps it again. Returns the bytes of the mappings released (0 when
  /// there is none or the maps cannot be read).
  ///
  /// The corresponding C function is `madvise` (`MADV_DONTNEED`).
  @discardableResult
  static func releasePages(of path: String) -> Int {
    mappings.exclusively { releasePagesNow(of: path) }
  }

  /// Held alone while the mappings listed are released, shared while a decoder is made or
  /// freed (its mappings come or go: a failing `ps_init` unmaps the model definition it had
  /// mapped). A mapping listed, then unmapped by another thread's decoder and its addresses
  /// reused by `malloc` before `madvise`, would have had that memory zeroed (a dictionary
  /// being read on another thread lost a stretch of its words: 'around' to 'move'). Shared,
  /// so that decoders still load at the same time.
  private static let mappings = ReadersWriterLock()

  /// Runs `body` (which maps or unmaps files: `ps_init`, `ps_free`) while no mapping is being
  /// released; other such bodies may run at the same time.
  static func changingMappings<T>(_ body: () throws -> T) rethrows -> T {
    try mappings.shared(body)
  }

  private static func releasePagesNow(of path: String) -> Int {
    #if os(Linux)
      guard let resolved = realpath(path, nil) else { return 0 }
      let target = String(cString: resolved)
      free(resolved)
      guard let maps = procFile("/proc/self/maps") else { return 0 }
      var released = 0
      for line in maps.split(separator: "\n") {
        // start-end perms offset dev inode path
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count == 6, fields[5].trimmed() == target,
          fields[1].hasPrefix("r"), !fields[1].contains("w")
        else { continue }
        let bounds = fields[0].split(separator: "-")
        guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start,
          let address = UnsafeMutableRawPointer(bitPattern: start)
        else { continue }
        if madvise(address, Int(end - start), MADV_DONTNEED) == 0 { released += Int(end - start) }
      }
      return released
    #else
      return 0
    #endif
  }

  /// A lock that many hold at once (`shared`) or one alone (`exclusively`).
  ///
  /// The corresponding C functions are `pthread_rwlock_rdlock`, `pthread_rwlock_wrlock` and
  /// `pthread_rwlock_unlock`.
  final class ReadersWriterLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
      lock = .allocate(capacity: 1)
      lock.initialize(to: pthread_rwlock_t())
      precondition(pthread_rwlock_init(lock, nil) == 0, "cannot make a readers-writer lock")
    }

    deinit {
      pthread_rwlock_destroy(lock)
      lock.deallocate()
    }

    func shared<T>(_ body: () throws -> T) rethrows -> T {
      pthread_rwlock_rdlock(lock)
      defer { pthread_rwlock_unlock(lock) }
      return try body()
    }

    func exclusively<T>(_ body: () throws -> T) rethrows -> T {
      pthread_rwlock_wrlock(lock)
      defer { pthread_rwlock_unlock(lock) }
      return try body()
    }
  }

  /// The whole text of a file of `/proc`, read until its end (Foundation reads such files,
  /// whose size says 0, only as far as its first read: 4 KB). The corresponding C functions
  /// are `open` and `read`.
  static func procFile(_ path: String) -> String? {
    #if os(Linux)
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { return nil }
        if count == 0 { break }
        bytes += chunk[..<count]
      }
      return String(decoding: bytes, as: UTF8.self)
    #else
      return try? String(contentsOfFile: path, encoding: .utf8)
    #endif
  }
}
