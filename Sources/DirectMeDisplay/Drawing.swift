import CSDL2
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Drawing a scene: the grid, the top bar (button, level meter, hints), the bottom panel
/// (transcripts and directions), the sprite, and cached text.
extension StageWindow {
  // MARK: Drawing

  /// Draws `scene` and shows it. After the first frame only what changed since the last one
  /// is drawn again (`drawsChangesOnly`): the rectangle the ninja left and entered, and a
  /// panel whose texts changed. The window keeps its pixels between frames (SDL's software
  /// renderer draws into the window's own surface), so the frame is pixel for pixel the one
  /// drawn whole; a test compares them.
  public func draw(_ scene: Scene) {
    let spriteRect = spriteRect(at: scene.spritePosition)
    if drawsFromBackdrop, let backdrop = backdrop() {
      let regions = drawsChangesOnly ? shown.flatMap { changedRegions(from: $0, to: (scene, spriteRect)) } : nil
      for region in regions ?? [SDL_Rect(x: 0, y: 0, w: Int32(size.width), h: Int32(size.height))] {
        drawBackground(from: backdrop, sprite: spriteRect, within: region)
        if intersects(region, panelRects[0]) { drawTopBar(scene) }
        if intersects(region, panelRects[1]) { drawBottomPanel(scene) }
      }
      SDL_RenderSetClipRect(renderer, nil)
      shown = (scene, spriteRect)
    } else {
      drawGrid()
      drawSprite(spriteRect)
      fillPanels()
      drawTopBar(scene)
      drawBottomPanel(scene)
      shown = nil
    }
    SDL_RenderPresent(renderer)
  }

  /// Where the ninja is drawn when the scene puts it at `position` (its middle, on whole pixels).
  func spriteRect(at position: Point) -> SDL_Rect {
    SDL_Rect(
      x: Int32(position.x.rounded()) - Int32(spriteSize.width / 2), y: Int32(position.y.rounded()) - Int32(spriteSize.height / 2),
      w: Int32(spriteSize.width), h: Int32(spriteSize.height))
  }

  /// The rectangles to draw again to turn the frame `from` into `to` (empty: nothing
  /// changed); nil when the whole window must be drawn (a field of the scene this function
  /// does not know changed).
  func changedRegions(from: (scene: Scene, sprite: SDL_Rect), to: (scene: Scene, sprite: SDL_Rect)) -> [SDL_Rect]? {
    var regions: [SDL_Rect] = []
    var old = from.sprite
    var new = to.sprite
    if SDL_RectEquals(&old, &new) != SDL_TRUE {
      var union = SDL_Rect()
      SDL_UnionRect(&old, &new, &union)
      regions.append(union)
    }
    let (a, b) = (from.scene, to.scene)
    let topBarSame = a.isListening == b.isListening && a.level == b.level && a.status == b.status && a.prompt == b.prompt
      && a.partial == b.partial
    let bottomSame = a.lastTranscript == b.lastTranscript && a.lastInstructions == b.lastInstructions
      && a.rescues == b.rescues && a.rejection == b.rejection
    if !topBarSame { regions.append(panelRects[0]) }
    if !bottomSame { regions.append(panelRects[1]) }
    // Every field accounted for: the scenes must be equal once these are made so.
    var rest = b
    rest.spritePosition = a.spritePosition
    (rest.isListening, rest.level, rest.status, rest.prompt, rest.partial) = (a.isListening, a.level, a.status, a.prompt, a.partial)
    (rest.lastTranscript, rest.lastInstructions, rest.rescues, rest.rejection) = (a.lastTranscript, a.lastInstructions, a.rescues, a.rejection)
    return rest == a ? regions : nil
  }

  private func intersects(_ a: SDL_Rect, _ b: SDL_Rect) -> Bool {
    var a = a
    var b = b
    return SDL_HasIntersection(&a, &b) == SDL_TRUE
  }

  /// The heights of the top bar and of the bottom (transcript) panel, pixels.
  public static let topBarHeight = 74
  public static let bottomPanelHeight = 96

  /// The translucent panels over the stage: the top bar and the bottom (transcript) panel.
  var panelRects: [SDL_Rect] {
    [
      SDL_Rect(x: 0, y: 0, w: Int32(size.width), h: Int32(Self.topBarHeight)),
      SDL_Rect(x: 0, y: Int32(size.height - Self.bottomPanelHeight), w: Int32(size.width), h: Int32(Self.bottomPanelHeight)),
    ]
  }

  /// The stage without the ninja: the grid with the panels over it, drawn once.
  ///
  /// The corresponding C functions are `SDL_CreateTexture` and `SDL_SetRenderTarget`.
  private func backdrop() -> OpaquePointer? {
    if let cachedBackdrop { return cachedBackdrop }
    guard
      let texture = SDL_CreateTexture(
        renderer, pixelFormat, Int32(SDL_TEXTUREACCESS_TARGET.rawValue), Int32(size.width), Int32(size.height))
    else { return nil }
    SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
    SDL_SetRenderTarget(renderer, texture)
    drawGrid()
    fillPanels()
    SDL_SetRenderTarget(renderer, nil)
    cachedBackdrop = texture
    return texture
  }

  /// The grid, the ninja and the panels over it inside `region`, as `drawGrid`, `drawSprite`
  /// and `fillPanels` draw them, pixel for pixel (a test compares), at the cost of one copy:
  /// the panels' blending (a quarter of the window, every frame of an animation: most of the
  /// window's drawing time) is redone only where the ninja is under a panel. Leaves the clip
  /// rectangle at `region`.
  private func drawBackground(from backdrop: OpaquePointer, sprite: SDL_Rect, within region: SDL_Rect) {
    var region = region
    SDL_RenderSetClipRect(renderer, &region)
    SDL_RenderCopy(renderer, backdrop, nil, nil)
    let panels = panelRects
    var stage = SDL_Rect(x: 0, y: panels[0].h, w: Int32(size.width), h: panels[1].y - panels[0].h)
    var spriteArea = SDL_Rect()
    if SDL_IntersectRect(&stage, &region, &spriteArea) == SDL_TRUE {
      SDL_RenderSetClipRect(renderer, &spriteArea)
      drawSprite(sprite)
    }
    for panel in panels {
      var panel = panel
      var under = sprite
      var overlap = SDL_Rect()
      var drawn = SDL_Rect()
      guard SDL_IntersectRect(&panel, &under, &overlap) == SDL_TRUE,
        SDL_IntersectRect(&overlap, &region, &drawn) == SDL_TRUE
      else { continue }
      SDL_RenderSetClipRect(renderer, &drawn)
      drawGrid(clipped: true)
      drawSprite(sprite)
      fill(panel, Self.panelColour)
    }
    SDL_RenderSetClipRect(renderer, &region)
  }

  static let panelColour: (UInt8, UInt8, UInt8, UInt8) = (255, 255, 255, 215)

  private func fillPanels() {
    for panel in panelRects { fill(panel, Self.panelColour) }
  }

  private func drawSprite(_ rect: SDL_Rect) {
    var rect = rect
    SDL_RenderCopy(renderer, sprite, nil, &rect)
  }

  /// The background and its grid lines; `clipped`: only inside the clip rectangle (which
  /// SDL_RenderClear would ignore).
  private func drawGrid(clipped: Bool = false) {
    if clipped {
      fill(SDL_Rect(x: 0, y: 0, w: Int32(size.width), h: Int32(size.height)), 236, 240, 244)
    } else {
      setColor(236, 240, 244)
      SDL_RenderClear(renderer)
    }
    setColor(222, 228, 234)
    let step = 50
    for x in stride(from: 0, through: size.width, by: step) {
      SDL_RenderDrawLine(renderer, Int32(x), 0, Int32(x), Int32(size.height))
    }
    for y in stride(from: 0, through: size.height, by: step) {
      SDL_RenderDrawLine(renderer, 0, Int32(y), Int32(size.width), Int32(y))
    }
  }

  private func drawTopBar(_ scene: Scene) {
    let listening = scene.isListening
    if listening {
      fill(buttonRect, 214, 48, 49)
    } else {
      fill(buttonRect, 39, 174, 96)
    }
    let label = listening ? "End Recording" : "Record Directions"
    drawText(label, font: font, color: (255, 255, 255), centredIn: buttonRect)
    if let level = scene.level {
      let width = Int32(Double(buttonRect.w) * min(1, max(0, level)))
      fill(SDL_Rect(x: buttonRect.x, y: buttonRect.y + buttonRect.h + 2, w: width, h: 4), 52, 73, 94)
    }
    let x = buttonRect.x + buttonRect.w + 18
    if let status = scene.status {
      drawText(status, font: smallFont, color: (192, 57, 43), at: (x, 16))
    } else if let prompt = scene.prompt {
      drawText(prompt, font: font, color: (44, 62, 80), at: (x, 12))
    } else {
      let hint = listening ? "Listening... say \"up\", \"move left\", \"down down right\"" : "Press Space or click to give directions"
      drawText(hint, font: smallFont, color: (90, 100, 110), at: (x, 16))
    }
    if !scene.partial.isEmpty {
      drawText("hearing: \(scene.partial)", font: smallFont, color: (120, 120, 120), at: (x, 40))
    } else if listening {
      drawText("hearing: ...", font: smallFont, color: (170, 170, 170), at: (x, 40))
    }
  }

  private func drawBottomPanel(_ scene: Scene) {
    let top = panelRects[1].y
    guard !scene.lastTranscript.isEmpty || scene.rejection != nil else {
      drawText("Directions will appear here.", font: smallFont, color: (150, 150, 150), at: (16, top + 12))
      return
    }
    let heard = scene.lastTranscript.isEmpty ? "(nothing)" : "\u{201C}\(scene.lastTranscript)\u{201D}"
    drawText("Heard: \(heard)", font: font, color: (44, 62, 80), at: (16, top + 10))
    if let rejection = scene.rejection {
      drawText("Rejected: \(rejection)", font: smallFont, color: (192, 57, 43), at: (16, top + 40))
    } else {
      let moves = scene.lastInstructions.map(\.arrow).joined(separator: " ")
      let names = scene.lastInstructions.map(\.rawValue).joined(separator: " ")
      drawText("Directions: \(names)  \(moves)", font: smallFont, color: (39, 120, 70), at: (16, top + 40))
    }
    if !scene.rescues.isEmpty {
      drawText("Rescued: " + scene.rescues.joined(separator: ", "), font: smallFont, color: (211, 84, 0), at: (16, top + 64))
    }
  }

  private func setColor(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
    SDL_SetRenderDrawColor(renderer, r, g, b, a)
  }

  private func fill(_ rect: SDL_Rect, _ colour: (UInt8, UInt8, UInt8, UInt8)) {
    fill(rect, colour.0, colour.1, colour.2, colour.3)
  }

  private func fill(_ rect: SDL_Rect, _ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
    setColor(r, g, b, a)
    var rect = rect
    SDL_RenderFillRect(renderer, &rect)
  }

  struct TextKey: Hashable {
    var text: String
    var large: Bool
    var r: UInt8, g: UInt8, b: UInt8
  }

  struct CachedText {
    var texture: OpaquePointer
    var width: Int32
    var height: Int32
  }

  private func texture(for text: String, font: OpaquePointer, color: (UInt8, UInt8, UInt8)) -> CachedText? {
    let key = TextKey(text: text, large: font == self.font, r: color.0, g: color.1, b: color.2)
    if let cached = textCache[key] { return cached }
    if textCache.count > 64 {
      for cached in textCache.values { SDL_DestroyTexture(cached.texture) }
      textCache.removeAll()
    }
    guard let surface = TTF_RenderUTF8_Blended(font, text, SDL_Color(r: color.0, g: color.1, b: color.2, a: 255))
    else { return nil }
    defer { SDL_FreeSurface(surface) }
    guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
    let cached = CachedText(texture: texture, width: surface.pointee.w, height: surface.pointee.h)
    textCache[key] = cached
    return cached
  }

  /// The window's right margin: text stops this far (px) from its edge.
  static let textMargin: Int32 = 8

  /// The width (px) of `text` drawn in `font`; 0 when SDL_ttf cannot measure it (the text is
  /// then cut at the margin). The corresponding C function is `TTF_SizeUTF8`.
  func textWidth(_ text: String, font: OpaquePointer) -> Int {
    var width: Int32 = 0
    return TTF_SizeUTF8(font, text, &width, nil) == 0 ? Int(width) : 0
  }

  /// The width (px) a line drawn from `x` has before the right margin.
  func textRoom(from x: Int32) -> Int32 { Int32(size.width) - x - Self.textMargin }

  /// `text` as drawn from `x`: its middle left out ("…") when it would run past the right margin.
  func fitting(_ text: String, font: OpaquePointer, from x: Int32) -> String {
    TextFitting.fitted(text, maxWidth: Int(textRoom(from: x))) { textWidth($0, font: font) }
  }

  private func drawText(_ text: String, font: OpaquePointer, color: (UInt8, UInt8, UInt8), at origin: (Int32, Int32)) {
    let fitting = fitting(text, font: font, from: origin.0)
    guard !fitting.isEmpty, let cached = texture(for: fitting, font: font, color: color) else { return }
    let maxWidth = textRoom(from: origin.0)
    var source = SDL_Rect(x: 0, y: 0, w: min(cached.width, maxWidth), h: cached.height)
    var target = SDL_Rect(x: origin.0, y: origin.1, w: source.w, h: cached.height)
    SDL_RenderCopy(renderer, cached.texture, &source, &target)
  }

  private func drawText(_ text: String, font: OpaquePointer, color: (UInt8, UInt8, UInt8), centredIn rect: SDL_Rect) {
    guard let cached = texture(for: text, font: font, color: color) else { return }
    var target = SDL_Rect(
      x: rect.x + (rect.w - cached.width) / 2, y: rect.y + (rect.h - cached.height) / 2, w: cached.width,
      h: cached.height)
    SDL_RenderCopy(renderer, cached.texture, nil, &target)
  }
}
