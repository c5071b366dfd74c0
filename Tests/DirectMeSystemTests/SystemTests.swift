import Foundation
import Synchronization
import Testing

@testable import DirectMeSystem

@Suite("System services without Foundation")
struct SystemTests {
  @Test("printf formats numbers as Foundation's String(format:) does, every format the programs use")
  func printfMatchesFoundation() {
    var generator = SystemRandomNumberGenerator()
    let formats = ["%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%g", "%.2g", "%5.1f%%", "%+.1f pt", "%+.0f%%", "%4.2f", "%6.1f", "%3.0f"]
    var values: [Double] = [0, -0.0, 0.125, 0.5, 1.5, 2.5, -2.5, 0.045, 1e-7, 123_456.789, -1e21, .infinity, -.infinity, .nan]
    for _ in 0..<500 { values.append(Double.random(in: -1000...1000, using: &generator)) }
    for format in formats {
      for value in values {
        #expect(String(printf: format, value) == String(format: format, value), "\(format) of \(value)")
      }
    }
    for value in [0, 7, -3, 12_345, 999_999] {
      #expect(String(printf: "utterance-%04d.wav", value) == String(format: "utterance-%04d.wav", value))
      #expect(String(printf: "  %5d", value) == String(format: "  %5d", value))
    }
    #expect(String(printf: "format 0x%x", UInt32(0x10002)) == "format 0x10002")
    #expect(String(printf: "%.3f of %d examples (epoch %d of %d)", 0.5, 1200, 3, 40) == "0.500 of 1200 examples (epoch 3 of 40)")
    let long = String(repeating: "x", count: 300)
    #expect(String(printf: long + " %.1f", 2.0) == long + " 2.0", "longer than the first buffer")
  }

  @Test("trimming and padding, as Foundation's")
  func text() {
    #expect(" \t a b \n".trimmed() == "a b")
    #expect("   ".trimmed() == "")
    #expect("..x..".trimmed { $0 == "." } == "x")
    for word in ["up", "", "sevenchars", "exactly"] {
      #expect(word.padded(toLength: 7) == word.padding(toLength: 7, withPad: " ", startingAt: 0))
    }
  }

  @Test("a program's output, exit status and the signal that ended it")
  func runsPrograms() throws {
    var output: [UInt8] = []
    let status = try runProgram("/bin/sh", arguments: ["-c", "echo out; echo err >&2; read x; echo \"[$x]\"; exit 3"]) {
      output += $0
    }
    #expect(status == 3)
    #expect(String(decoding: output, as: UTF8.self) == "out\nerr\n[]\n", "stdout and stderr together, stdin empty")
    #expect(try runProgram("/bin/sh", arguments: ["-c", "kill -9 $$"]) { _ in } == 128 + 9)
    #expect(throws: SystemError.self) { try runProgram("/nonexistent/program", arguments: []) { _ in } }
  }

  @Test("files written as they go, appended to, read back; a missing one is the system's reason")
  func files() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("system-\(UUID().uuidString).txt").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file = try OutputFile(path: path, mode: .truncate, permissions: 0o600)
    try file.write("first\n")
    #expect(fileSize(atPath: path) == 6, "written before close")
    file.close()
    let appended = try OutputFile(path: path, mode: .append)
    try appended.write(Array("second\n".utf8))
    appended.synchronize()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\nsecond\n")
    #expect(readPrefix(ofFileAt: path, count: 5) == Array("first".utf8))
    #expect(readPrefix(ofFileAt: path, count: 100)?.count == 13)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect(readPrefix(ofFileAt: path + ".missing", count: 5) == nil)
    #expect(fileSize(atPath: path + ".missing") == nil)
    #expect(throws: SystemError.self) { try OutputFile(path: "/nonexistent/folder/file", mode: .truncate) }
    do {
      _ = try Data(contentsOf: URL(fileURLWithPath: path + ".missing"))
      Issue.record("read a missing file")
    } catch {
      #expect(reason(of: error) == "No such file or directory")
    }
  }

  @Test("a condition wakes its waiter, and a wait without a signal runs out")
  func condition() {
    let condition = Condition()
    condition.lock()
    let started = Date()
    #expect(condition.wait(seconds: 0.05) == false)
    #expect(Date().timeIntervalSince(started) >= 0.04)
    #expect(condition.wait(seconds: -1) == false, "a deadline already past")
    condition.unlock()
    let flag = LockedFlag()
    startThread {
      sleep(seconds: 0.02)
      condition.withLock {
        flag.set()
        condition.signal()
      }
    }
    condition.lock()
    while !flag.isSet { #expect(condition.wait(seconds: 5)) }
    condition.unlock()
  }

  final class LockedFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
  }
}
