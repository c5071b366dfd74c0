/// An RGBA image, 8 bits a channel, rows top to bottom.
public struct Image: Hashable, Sendable {
  public var width: Int
  public var height: Int
  /// `width * height * 4` bytes: R, G, B, A.
  public var pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(pixels.count == width * height * 4, "RGBA pixel count does not match the size")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The colour at (x, y).
  public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let offset = (y * width + x) * 4
    return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
  }
}

/// Writes PNG files (RGB, 8-bit) with a small deflate encoder: LZ77 matching and the fixed
/// Huffman code, which is plenty for flat user-interface pictures.
public enum PNGEncoder {
  public static func encode(_ image: Image) -> [UInt8] {
    var raw: [UInt8] = []
    raw.reserveCapacity(image.height * (image.width * 3 + 1))
    for y in 0..<image.height {
      raw.append(0)  // filter: none
      let row = y * image.width * 4
      for x in 0..<image.width {
        let offset = row + x * 4
        raw.append(image.pixels[offset])
        raw.append(image.pixels[offset + 1])
        raw.append(image.pixels[offset + 2])
      }
    }
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var header: [UInt8] = []
    header.appendBigEndian(UInt32(image.width))
    header.appendBigEndian(UInt32(image.height))
    header += [8, 2, 0, 0, 0]  // 8-bit, RGB, deflate, no filter method, no interlace
    png.appendChunk("IHDR", header)
    png.appendChunk("IDAT", zlib(raw))
    png.appendChunk("IEND", [])
    return png
  }

  /// A zlib stream holding `data`, deflated.
  static func zlib(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    out += deflate(data)
    out.appendBigEndian(adler32(data))
    return out
  }

  static func deflate(_ data: [UInt8]) -> [UInt8] {
    var bits = BitWriter()
    bits.write(1, count: 1)  // final block
    bits.write(1, count: 2)  // fixed Huffman
    let hashSize = 1 << 15
    var head = [Int](repeating: -1, count: hashSize)
    var position = 0
    let count = data.count
    data.withUnsafeBufferPointer { bytes in
      func hash(_ at: Int) -> Int {
        (Int(bytes[at]) << 10 ^ Int(bytes[at + 1]) << 5 ^ Int(bytes[at + 2])) & (hashSize - 1)
      }
      while position < count {
        var length = 0
        var distance = 0
        if position + 2 < count {
          let key = hash(position)
          let candidate = head[key]
          head[key] = position
          if candidate >= 0 && position - candidate <= 32768 {
            var matched = 0
            let limit = min(258, count - position)
            while matched < limit && bytes[candidate + matched] == bytes[position + matched] { matched += 1 }
            if matched >= 3 {
              length = matched
              distance = position - candidate
            }
          }
        }
        if length >= 3 {
          bits.writeLength(length)
          bits.writeDistance(distance)
          // Index the positions inside the match too, so later runs find it.
          var inner = position + 1
          let end = min(position + length, count - 2)
          while inner < end {
            head[hash(inner)] = inner
            inner += 1
          }
          position += length
        } else {
          bits.writeLiteral(Int(bytes[position]))
          position += 1
        }
      }
    }
    bits.writeLiteral(256)  // end of block
    return bits.finish()
  }

  static func adler32(_ data: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    var index = 0
    while index < data.count {
      let end = min(index + 5552, data.count)
      for byte in data[index..<end] {
        a += UInt32(byte)
        b += a
      }
      a %= 65521
      b %= 65521
      index = end
    }
    return b << 16 | a
  }

  static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func crc32(_ data: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }
}

private struct BitWriter {
  var bytes: [UInt8] = []
  var buffer: UInt64 = 0
  var filled = 0

  /// Writes `count` bits of `value`, least significant first.
  mutating func write(_ value: Int, count: Int) {
    buffer |= UInt64(value) << UInt64(filled)
    filled += count
    while filled >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      filled -= 8
    }
  }

  /// Writes a Huffman code, most significant bit first.
  mutating func writeCode(_ code: Int, length: Int) {
    var reversed = 0
    for i in 0..<length where code & (1 << i) != 0 { reversed |= 1 << (length - 1 - i) }
    write(reversed, count: length)
  }

  mutating func writeLiteral(_ symbol: Int) {
    switch symbol {
    case 0...143: writeCode(0x30 + symbol, length: 8)
    case 144...255: writeCode(0x190 + symbol - 144, length: 9)
    case 256...279: writeCode(symbol - 256, length: 7)
    default: writeCode(0xC0 + symbol - 280, length: 8)
    }
  }

  static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
  static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
  static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
  static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

  mutating func writeLength(_ length: Int) {
    var code = Self.lengthBase.count - 1
    while Self.lengthBase[code] > length { code -= 1 }
    writeLiteral(257 + code)
    write(length - Self.lengthBase[code], count: Self.lengthExtra[code])
  }

  mutating func writeDistance(_ distance: Int) {
    var code = Self.distanceBase.count - 1
    while Self.distanceBase[code] > distance { code -= 1 }
    writeCode(code, length: 5)
    write(distance - Self.distanceBase[code], count: Self.distanceExtra[code])
  }

  mutating func finish() -> [UInt8] {
    if filled > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
    buffer = 0
    filled = 0
    return bytes
  }
}

extension [UInt8] {
  mutating func appendBigEndian(_ value: UInt32) {
    append(UInt8(value >> 24))
    append(UInt8(value >> 16 & 0xFF))
    append(UInt8(value >> 8 & 0xFF))
    append(UInt8(value & 0xFF))
  }

  mutating func appendChunk(_ type: String, _ body: [UInt8]) {
    appendBigEndian(UInt32(body.count))
    let typed = Array(type.utf8) + body
    append(contentsOf: typed)
    appendBigEndian(PNGEncoder.crc32(typed))
  }
}
