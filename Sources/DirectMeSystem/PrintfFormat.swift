#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension String {
  /// `format` filled in as C's `printf` does ("%.2f", "%5.1f%%", "%04d"): what Foundation's
  /// `String(format:)` gives for numbers, without loading Foundation's internationalization
  /// (7 MB of a replay's resident memory). Numbers only: no `%@`.
  public init(printf format: String, _ arguments: CVarArg...) {
    var capacity = 64
    while true {
      var buffer = [CChar](repeating: 0, count: capacity)
      let needed = withVaList(arguments) { vsnprintf(&buffer, capacity, format, $0) }
      guard needed >= 0 else {
        self = format
        return
      }
      if Int(needed) < capacity {
        self = String(decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return
      }
      capacity = Int(needed) + 1
    }
  }
}
