import DirectMeTestSupport
import Foundation
import Synchronization
import Testing

@testable import DirectMeRecognizer

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Mapped files")
struct MappedFileTests {
  /// The resident kilobytes of this process's mappings starting at `address` (`/proc/self/smaps`).
  func residentKilobytes(at address: UnsafeRawPointer) throws -> Int {
    let smaps = try #require(MappedFile.procFile("/proc/self/smaps"))
    let start = String(UInt(bitPattern: address), radix: 16)
    var inMapping = false
    for line in smaps.split(separator: "\n") {
      if let range = line.split(separator: " ").first, range.contains("-") {
        inMapping = range.split(separator: "-").first.map { String($0) == start } ?? false
      } else if inMapping, line.hasPrefix("Rss:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
      }
    }
    return -1
  }

  @Test("a read-only mapping's pages are let go and read back the same")
  func release() throws {
    #if os(Linux)
      let folder = try TestSupport.temporaryFolder("mapped")
      defer { try? FileManager.default.removeItem(at: folder) }
      let file = folder.appendingPathComponent("model.bin")
      let size = 4 << 20
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
      try Data(bytes).write(to: file)
      let descriptor = open(file.path, O_RDONLY)
      try #require(descriptor >= 0)
      defer { close(descriptor) }
      let mapped = try #require(mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0))
      try #require(mapped != MAP_FAILED)
      defer { munmap(mapped, size) }
      let view = UnsafeRawBufferPointer(start: mapped, count: size)
      var sum = 0
      for index in stride(from: 0, to: size, by: 4096) { sum &+= Int(view[index]) }
      #expect(try residentKilobytes(at: mapped) >= size / 1024 - 4, "every page was read (sum \(sum))")

      #expect(MappedFile.releasePages(of: file.path) == size)
      #expect(try residentKilobytes(at: mapped) < 64, "its pages were let go")
      #expect(view.elementsEqual(bytes), "and read back as the file holds them")
      // Not a file mapped here: nothing to do.
      #expect(MappedFile.releasePages(of: folder.appendingPathComponent("absent").path) == 0)
    #endif
  }

  @Test("decoders are made and freed at the same time, but never while mappings are released")
  func mappingsChangeApartFromReleases() throws {
    // Two bodies that map or unmap files run at once: the first waits inside for the second.
    let secondInside = DispatchSemaphore(value: 0)
    let firstDone = DispatchSemaphore(value: 0)
    let together = Mutex(false)
    Thread {
      MappedFile.changingMappings { together.withLock { $0 = secondInside.wait(timeout: .now() + 10) == .success } }
      firstDone.signal()
    }.start()
    Thread.sleep(forTimeInterval: 0.05)
    _ = MappedFile.changingMappings { secondInside.signal() }
    #expect(firstDone.wait(timeout: .now() + 20) == .success)
    #expect(together.withLock { $0 }, "the second body ran while the first was inside")

    // Releasing waits until no body is inside.
    let inside = DispatchSemaphore(value: 0)
    let leave = DispatchSemaphore(value: 0)
    let left = DispatchSemaphore(value: 0)
    Thread {
      MappedFile.changingMappings {
        inside.signal()
        leave.wait()
      }
      left.signal()
    }.start()
    inside.wait()
    let released = Mutex(false)
    let releaseDone = DispatchSemaphore(value: 0)
    Thread {
      MappedFile.releasePages(of: "/nonexistent/mdef")
      released.withLock { $0 = true }
      releaseDone.signal()
    }.start()
    Thread.sleep(forTimeInterval: 0.3)
    #expect(!released.withLock { $0 }, "released while a decoder's mappings were changing")
    leave.signal()
    #expect(left.wait(timeout: .now() + 20) == .success)
    #expect(releaseDone.wait(timeout: .now() + 20) == .success, "released once they had changed")
  }

  @Test("a file of /proc is read to its end, past Foundation's first 4 KB")
  func procFile() throws {
    let maps = try #require(MappedFile.procFile("/proc/self/smaps"))
    #expect(maps.utf8.count > 8192)
    #expect(maps.hasSuffix("\n"))
  }
}
