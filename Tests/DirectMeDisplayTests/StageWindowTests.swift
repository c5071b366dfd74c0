import DirectMeCore
import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeDisplay

/// The sprite's dark cloth colour (scripts/make-ninja.py "K").
let cloth: (UInt8, UInt8, UInt8) = (28, 30, 38)

/// The bounding box of the pixels of `colour` inside `region` (x0, y0, x1, y1).
func boundingBox(of colour: (UInt8, UInt8, UInt8), in image: Image, region: (Int, Int, Int, Int)) -> (Int, Int, Int, Int)? {
  var box: (Int, Int, Int, Int)?
  for y in region.1..<region.3 {
    for x in region.0..<region.2 {
      let pixel = image[x, y]
      guard pixel.r == colour.0, pixel.g == colour.1, pixel.b == colour.2 else { continue }
      box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
    }
  }
  return box
}

/// Where the cloth pixels lie inside the sprite BMP itself (in BMP pixels).
func clothBoxInSprite() throws -> (Int, Int, Int, Int) {
  let data = try Data(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("Assets/ninja.bmp"))
  let bytes = [UInt8](data)
  func int32(_ o: Int) -> Int { Int(Int32(bitPattern: UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24)) }
  let offset = int32(10)
  let width = int32(18)
  let height = int32(22)
  let rowBytes = (width * 3 + 3) & ~3
  var box: (Int, Int, Int, Int)?
  for row in 0..<height {
    for x in 0..<width {
      let o = offset + (height - 1 - row) * rowBytes + x * 3
      if bytes[o + 2] == cloth.0 && bytes[o + 1] == cloth.1 && bytes[o] == cloth.2 {
        box = box.map { (min($0.0, x), min($0.1, row), max($0.2, x), max($0.3, row)) } ?? (x, row, x, row)
      }
    }
  }
  return try #require(box)
}

/// The window runs on SDL's dummy video driver, so the tests need no display; pixels are
/// read back from the renderer.
@Suite("Window", .serialized)
struct StageWindowTests {
  init() {
    setenv("SDL_VIDEODRIVER", "dummy", 1)
  }

  func makeWindow() throws -> StageWindow {
    try StageWindow(assets: WindowAssets(sprite: TestSupport.repositoryRoot.appendingPathComponent("Assets/ninja.bmp").path))
  }

  @Test("the ninja is drawn where the scene puts it", arguments: [(400.0, 300.0), (150.0, 250.0), (650.0, 400.0)])
  func spritePosition(x: Double, y: Double) throws {
    let window = try makeWindow()
    window.draw(Scene(spritePosition: Point(x: x, y: y)))
    let image = try window.capturePixels()
    let found = try #require(boundingBox(of: cloth, in: image, region: (0, 80, 800, 500)))
    let inSprite = try clothBoxInSprite()
    let scale = Int(StageWindow.spriteScale)
    let left = Int(x) - window.spriteSize.width / 2 + inSprite.0 * scale
    let top = Int(y) - window.spriteSize.height / 2 + inSprite.1 * scale
    #expect(found.0 == left && found.1 == top, "cloth at \(found), expected top-left (\(left), \(top))")
  }

  @Test("the record button shows whether it is listening: green, then red")
  func recordButton() throws {
    let window = try makeWindow()
    window.draw(Scene(spritePosition: Point(x: 400, y: 300), isListening: false))
    let idle = try window.capturePixels()[30, 20]
    window.draw(Scene(spritePosition: Point(x: 400, y: 300), isListening: true))
    let listening = try window.capturePixels()[30, 20]
    #expect(idle.g > 150 && idle.r < 80, "idle button \(idle)")
    #expect(listening.r > 180 && listening.g < 80, "listening button \(listening)")
  }

  @Test("texts are drawn: the transcript panel changes when a transcript arrives")
  func texts() throws {
    let window = try makeWindow()
    window.draw(Scene(spritePosition: Point(x: 400, y: 300)))
    let before = try window.capturePixels()
    window.draw(
      Scene(
        spritePosition: Point(x: 400, y: 300), lastTranscript: "move drown", lastInstructions: [.down],
        rescues: ["drown -> down"]))
    let after = try window.capturePixels()
    var changed = 0
    for y in 504..<600 {
      for x in 0..<800 where before[x, y] != after[x, y] { changed += 1 }
    }
    #expect(changed > 500)
  }

  @Test("a line too long for the window loses its middle, not its end: a long rejection ends inside the margin")
  func longLine() throws {
    let window = try makeWindow()
    let reason = "not sure enough of \"" + Array(repeating: "please move the ninja", count: 6).joined(separator: " ")
      + "\" (confidence 0.05 < 0.61)"
    window.draw(Scene(spritePosition: Point(x: 400, y: 300), lastTranscript: "please move", rejection: reason))
    let line = "Rejected: " + reason
    let fitted = window.fitting(line, font: window.smallFont, from: 16)
    #expect(fitted.hasPrefix("Rejected: not sure") && fitted.hasSuffix("(confidence 0.05 < 0.61)") && fitted.contains("\u{2026}"))
    let room = 800 - 16 - Int(StageWindow.textMargin)
    #expect(window.textWidth(fitted, font: window.smallFont) <= room)
    #expect(window.textWidth(fitted, font: window.smallFont) > room - 20, "as much kept as fits")
    let image = try window.capturePixels()
    let red = try #require(boundingBox(of: (192, 57, 43), in: image, region: (0, 530, 800, 580)))
    #expect(red.2 > 700 && red.2 < 800 - Int(StageWindow.textMargin), "drawn up to the margin: \(red)")
  }

  @Test("screenshots are written as PNG and BMP")
  func screenshots() throws {
    let folder = try TestSupport.temporaryFolder("shots")
    defer { try? FileManager.default.removeItem(at: folder) }
    let window = try makeWindow()
    window.draw(Scene(spritePosition: Point(x: 400, y: 300)))
    let png = folder.appendingPathComponent("shot.png")
    let bmp = folder.appendingPathComponent("shot.bmp")
    try window.saveScreenshot(to: png.path)
    try window.saveScreenshot(to: bmp.path)
    let pngBytes = try [UInt8](Data(contentsOf: png))
    #expect(Array(pngBytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(try [UInt8](Data(contentsOf: bmp)).prefix(2) == [0x42, 0x4D])
    // Decode the PNG with an independent decoder (Python's zlib and the PNG row filters) and compare a pixel.
    guard TestSupport.which("python3") != nil else { return }
    let check = try TestSupport.run([
      "python3", "-c",
      """
      import zlib, struct, sys
      d = open(sys.argv[1], 'rb').read()
      w, h, depth, kind = struct.unpack('>IIBB', d[16:26])
      assert depth == 8 and kind in (2, 6), (depth, kind)
      n = 3 if kind == 2 else 4
      chunks, i = b'', 8
      while i < len(d):
          size = struct.unpack('>I', d[i:i+4])[0]; t = d[i+4:i+8]
          if t == b'IDAT': chunks += d[i+8:i+8+size]
          i += 12 + size
      raw = zlib.decompress(chunks)
      stride, rows, prev = w * n, [], bytearray(w * n)
      for y in range(h):
          f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
          for x in range(stride):
              a = line[x - n] if x >= n else 0
              b = prev[x]
              c = prev[x - n] if x >= n else 0
              if f == 1: line[x] = (line[x] + a) & 255
              elif f == 2: line[x] = (line[x] + b) & 255
              elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
              elif f == 4:
                  p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                  line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
          rows.append(line); prev = line
      x, y = 30, 20
      print(w, h, *rows[y][x*n:x*n+3])
      """, png.path,
    ])
    #expect(check.status == 0, "\(check.stderr)")
    let pixel = try window.capturePixels()[30, 20]
    #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "800 600 \(pixel.r) \(pixel.g) \(pixel.b)")
  }

  /// Sprite positions: the middle, under each panel, half out of the window, in the corners.
  static let positions: [(Double, Double)] = [
    (400, 300), (400, 40), (130, 20), (400, 560), (700, 590), (5, 300), (795, 300), (0, 0), (800, 600),
    (400, 74), (400, 504), (400, 85), (400, 490),
  ]

  @Test("frames drawn from the backdrop are pixel for pixel the frames drawn whole, the ninja under the panels included")
  func sameFrames() throws {
    let window = try makeWindow()
    var differing: [String] = []
    var spriteShown = 0
    for (x, y) in Self.positions {
      let scene = Scene(
        spritePosition: Point(x: x, y: y), isListening: true, partial: "up", lastTranscript: "move left",
        lastInstructions: [.left], level: 0.5)
      window.drawsFromBackdrop = false
      window.draw(scene)
      let whole = try window.capturePixels()
      window.drawsFromBackdrop = true
      window.draw(scene)
      let fromBackdrop = try window.capturePixels()
      let count = zip(whole.pixels, fromBackdrop.pixels).filter { $0 != $1 }.count
      if count > 0 { differing.append("(\(x), \(y)): \(count) bytes") }
      // The frames show the ninja where it is (not the backdrop alone).
      window.draw(Scene(spritePosition: Point(x: -1000, y: -1000), isListening: true, partial: "up", lastTranscript: "move left", lastInstructions: [.left], level: 0.5))
      let empty = try window.capturePixels()
      if empty.pixels != fromBackdrop.pixels { spriteShown += 1 }
    }
    #expect(differing.isEmpty, "frames differ at \(differing)")
    #expect(spriteShown == Self.positions.count)
  }

  @Test("a frame that draws only what changed since the last is pixel for pixel the frame drawn whole, through a moving ninja and changing texts")
  func changesOnly() throws {
    let window = try makeWindow()
    let whole = try makeWindow()
    whole.drawsChangesOnly = false
    // A walk through the positions (under the panels, half out, a jump across the window),
    // with the texts changing now and then, and frames where nothing changes.
    var scenes: [Scene] = []
    for (index, (x, y)) in Self.positions.enumerated() {
      for step in 0..<3 {
        var scene = Scene(
          spritePosition: Point(x: x + Double(step) * 2.6, y: y - Double(step) * 3.3), isListening: index % 4 != 3,
          partial: index % 3 == 0 ? "" : "up", lastTranscript: index < 5 ? "" : "move left", lastInstructions: index < 5 ? [] : [.left],
          level: Double(index % 5) / 4)
        if index == 7 { scene.rejection = "not sure enough of \"lift\"" }
        if index == 9 { scene.rescues = ["drown -> down"] }
        if index == 10 { scene.status = "microphone lost" }
        scenes.append(scene)
        if step == 1 { scenes.append(scene) }
      }
    }
    var differing: [String] = []
    // Frames after the first that drew under half the window.
    var partial = 0
    for (index, scene) in scenes.enumerated() {
      if let shown = window.shown {
        let regions = try #require(window.changedRegions(from: shown, to: (scene, window.spriteRect(at: scene.spritePosition))))
        if regions.reduce(0, { $0 + Int($1.w) * Int($1.h) }) < window.size.width * window.size.height / 2 { partial += 1 }
      }
      window.draw(scene)
      whole.draw(scene)
      let (drawn, reference) = (try window.capturePixels().pixels, try whole.capturePixels().pixels)
      // memcmp first: an element-wise comparison of 1.9 MB a frame is slow in a debug build.
      let same = drawn.count == reference.count
        && drawn.withUnsafeBytes { a in reference.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
      if !same {
        differing.append("frame \(index) at \(scene.spritePosition): \(zip(drawn, reference).filter { $0 != $1 }.count) bytes")
      }
    }
    #expect(differing.isEmpty, "frames differ: \(differing)")
    // The frames were drawn in parts (not whole every time).
    #expect(window.shown != nil && partial > scenes.count / 2)
    // A frame like the last draws nothing; a moved ninja, only its rectangles.
    let last = try #require(window.shown)
    #expect(window.changedRegions(from: last, to: last)?.isEmpty == true)
    var moved = last.sprite
    moved.x += 3
    let regions = try #require(window.changedRegions(from: last, to: (last.scene, moved)))
    #expect(regions.count == 1 && regions[0].w == last.sprite.w + 3 && regions[0].h == last.sprite.h)
  }

  @Test("a driver that shows nothing is refused unless asked for by name")
  func invisibleDrivers() {
    #expect(StageWindow.invisibleDriver(current: "offscreen", asked: nil) == "offscreen")
    #expect(StageWindow.invisibleDriver(current: "dummy", asked: "") == "dummy")
    #expect(StageWindow.invisibleDriver(current: "dummy", asked: "dummy") == nil)
    #expect(StageWindow.invisibleDriver(current: "offscreen", asked: "offscreen") == nil)
    #expect(StageWindow.invisibleDriver(current: "x11", asked: nil) == nil)
    #expect(StageWindow.invisibleDriver(current: "wayland", asked: "") == nil)
    #expect(StageWindow.invisibleDriver(current: nil, asked: nil) == nil)
  }

  @Test("a missing sprite or font is a clear error naming the file")
  func missingFiles() {
    #expect {
      _ = try StageWindow(assets: WindowAssets(sprite: "/nonexistent/ninja.bmp"))
    } throws: { error in
      "\(error)".contains("/nonexistent/ninja.bmp")
    }
    #expect {
      _ = try StageWindow(assets: WindowAssets(sprite: TestSupport.repositoryRoot.appendingPathComponent("Assets/ninja.bmp").path, font: "/nonexistent/font.ttf"))
    } throws: { error in
      "\(error)".contains("/nonexistent/font.ttf")
    }
  }

  @Test("a window that fails to open undoes all it set up, SDL included; wake() once it is gone does nothing")
  func failedOpenUndoes() throws {
    let sprite = TestSupport.repositoryRoot.appendingPathComponent("Assets/ninja.bmp").path
    #expect(!StageWindow.isVideoUp)
    // A font file that is not a font: fails at TTF_OpenFont, after SDL and the window are up.
    #expect {
      _ = try StageWindow(assets: WindowAssets(sprite: sprite, font: sprite))
    } throws: { error in
      "\(error)".contains("TrueType")
    }
    #expect(!StageWindow.isVideoUp)
    do {
      let window = try makeWindow()
      #expect(StageWindow.isVideoUp)
      withExtendedLifetime(window) {}
    }
    #expect(!StageWindow.isVideoUp)
    StageWindow.wake()
    #expect(!StageWindow.isVideoUp)
  }
}
