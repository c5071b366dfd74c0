extension StringProtocol {
  /// Without the white space (spaces, tabs, line breaks) at either end.
  public func trimmed() -> SubSequence { trimmed { $0.isWhitespace } }

  /// Without the characters `drop` takes at either end.
  public func trimmed(where drop: (Character) -> Bool) -> SubSequence {
    guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else {
      return self[endIndex...]
    }
    return self[first...last]
  }

  /// Cut or filled with spaces to `length` characters, as Foundation's
  /// `padding(toLength:withPad: " ", startingAt: 0)`.
  public func padded(toLength length: Int) -> String {
    count >= length ? String(prefix(length)) : String(self) + String(repeating: " ", count: length - count)
  }
}
