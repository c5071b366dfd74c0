import CPocketSphinx
import Foundation

/// Owns one `ps_decoder_t` and the configuration it was made from.
///
/// All calls must come from one thread at a time.
final class Decoder {
  let handle: OpaquePointer
  private let config: OpaquePointer

  /// Makes a decoder from command-line style options (`["-hmm", path, "-dict", path]`).
  ///
  /// The corresponding C functions are `cmd_ln_parse_r` and `ps_init`.
  init(options: [String], describing what: String) throws {
    let (config, log) = SphinxLog.capturing("reading decoder options") {
      withCStrings(["directme"] + options) { argv in
        cmd_ln_parse_r(nil, ps_args(), Int32(argv.count), argv.baseAddress, 1)
      }
    }
    guard let config else {
      throw PocketSphinxError.from("cmd_ln_parse_r", log: log, fallback: "bad decoder options \(options)")
    }
    let (decoder, initLog) = SphinxLog.capturing(what) { ps_init(config) }
    guard let decoder else {
      cmd_ln_free_r(config)
      throw PocketSphinxError.from("ps_init", log: initLog, fallback: "\(what) failed")
    }
    self.handle = decoder
    self.config = config
  }

  deinit {
    ps_free(handle)
    cmd_ln_free_r(config)
  }

  var logmath: OpaquePointer { ps_get_logmath(handle) }

  /// Converts a score in the decoder's log base to a natural log.
  func ln(_ score: Int32) -> Double {
    logmath_log_to_ln(logmath, score)
  }

  /// The value of a floating-point option.
  func float(_ name: String) -> Double {
    Double(cmd_ln_float_r(config, name))
  }

  /// The value of an integer option.
  func int(_ name: String) -> Int {
    Int(cmd_ln_int_r(config, name))
  }

  /// Frames per second of the acoustic features.
  var frameRate: Double { Double(int("-frate")) }

  /// Whether `word` is in the dictionary. The corresponding C function is `ps_lookup_word`.
  func knows(_ word: String) -> Bool {
    guard let phones = ps_lookup_word(handle, word) else { return false }
    free(phones)
    return true
  }

  /// Adds a word with its phones to the dictionary. The corresponding C function is `ps_add_word`.
  func addWord(_ word: String, phones: String) throws {
    let (id, log) = SphinxLog.capturing("adding '\(word)' to the dictionary") {
      ps_add_word(handle, word, phones, 0)
    }
    if id < 0 {
      throw PocketSphinxError.from("ps_add_word", log: log, fallback: "cannot add '\(word)' /\(phones)/")
    }
  }

  /// Throws the decoder's explanation when a status is negative.
  func check(_ status: Int32, _ function: String, log: [String] = []) throws {
    if status < 0 {
      throw PocketSphinxError.from(function, log: log, fallback: "\(function) failed")
    }
  }
}

/// Calls `body` with a C `argv` for `strings`, valid only inside it.
func withCStrings<T>(_ strings: [String], _ body: (UnsafeMutableBufferPointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
  var pointers = strings.map { strdup($0) }
  defer { pointers.forEach { free($0) } }
  return pointers.withUnsafeMutableBufferPointer { body($0) }
}
