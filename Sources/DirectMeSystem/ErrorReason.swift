#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// What went wrong, in a few words for a one-line message: the system's reason for a file
/// error ("No such file or directory", "Permission denied"), or the error's own description.
public func reason(of error: any Error) -> String {
  if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
  if let error = error as? CocoaError {
    if let underlying = error.userInfo["NSUnderlyingError"] as? POSIXError {
      return String(cString: strerror(underlying.code.rawValue))
    }
    switch error.code {
    case .fileReadNoSuchFile, .fileNoSuchFile: return String(cString: strerror(ENOENT))
    case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
    case .fileReadInapplicableStringEncoding: return "not UTF-8 text"
    case .fileReadCorruptFile: return "the file is corrupt"
    case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
    default: return "file error \(error.code.rawValue)"
    }
  }
  return "\(error)"
}
