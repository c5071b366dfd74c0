/// Text shortened to fit a width: the middle of a line too wide gives way to "…", so that
/// both ends stay — a rejection's reason and its figures, a partial's latest words.
enum TextFitting {
  static let ellipsis = "\u{2026}"

  /// `text` as it is when `width(text) <= maxWidth`; otherwise its longest shortening
  /// `start + "…" + end` that fits (as many characters kept at the end as at the start, or
  /// one fewer), down to "…" alone. `width` measures a string as it will be drawn.
  static func fitted(_ text: String, maxWidth: Int, width: (String) -> Int) -> String {
    guard width(text) > maxWidth else { return text }
    let characters = Array(text)
    func shortened(keeping kept: Int) -> String {
      let tail = kept / 2
      let head = kept - tail
      return String(characters[..<head]) + ellipsis + String(characters[(characters.count - tail)...])
    }
    // The most characters kept (of count - 1) whose shortening fits: widths grow with kept.
    var low = 0
    var high = characters.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if width(shortened(keeping: middle)) <= maxWidth { low = middle } else { high = middle - 1 }
    }
    return shortened(keeping: low)
  }
}
