import DirectMeCore
import Foundation

/// Synthetic speech for adapting the model, kept apart from the benchmark's synthetic corpus:
/// espeak-ng accents, variants, rates and pitches the benchmark does not use, and flite's
/// voices at rates and pitches of their own (the benchmark hears them at their defaults).
/// People are the product's users; synthetic voices are a minority of the adaptation audio,
/// there so that a formant synthesizer's "down" is not a stranger.
extension CorpusBuilder {
  /// Voices for adaptation: none with the rate and pitch of a benchmark voice.
  public static func adaptationVoices(rounds: Int = 2) -> [Voice] {
    let benchmark = Set(syntheticVoices())
    var voices: [Voice] = []
    let accents = Self.espeakAccents
    let variants = ["", "+m1", "+m2", "+m3", "+m4", "+m5", "+m6", "+m7", "+f1", "+f2", "+f3", "+f4", "+f5", "+klatt", "+Andy", "+Annie"]
    let rates = [120, 145, 175, 200]
    let pitches = [30, 45, 58, 72]
    for (index, variant) in variants.enumerated() {
      for round in 0..<rounds {
        let accent = accents[(index + round * 3) % accents.count]
        let voice = Voice(
          engine: "espeak-ng", name: accent + variant, rate: rates[(index + round) % rates.count],
          pitch: pitches[(index / 2 + round) % pitches.count])
        if !benchmark.contains(voice) { voices.append(voice) }
      }
    }
    // Each of espeak-ng's other variants once, with an accent, rate and pitch in turn: a
    // voice the model has not heard is decoded better the more kinds of voice it has.
    for (index, variant) in Self.moreAdaptationVariants.enumerated() {
      voices.append(
        Voice(
          engine: "espeak-ng", name: accents[(index * 3) % accents.count] + variant, rate: rates[index % rates.count],
          pitch: pitches[(index / 4) % pitches.count]))
    }
    // Festival's voices (when installed), made faster, slower, higher and lower by sox, and
    // flite's, six rates and pitches each: with three each they were a tenth of the voices
    // once espeak-ng's other variants came in, and flite's sequences in `directme-bench live`
    // lost 11 of 179 commands (left heard as up, down dropped); with six, none.
    for (voice, folder) in [
      ("kal_diphone", "/usr/share/festival/voices/english/kal_diphone"),
      ("ked_diphone", "/usr/share/festival/voices/english/ked_diphone"),
      ("cmu_us_slt_arctic_hts", "/usr/share/festival/voices/us/cmu_us_slt_arctic_hts"),
    ] where FileManager.default.fileExists(atPath: folder) {
      for (rate, pitch) in [(110, -200), (150, 150), (130, 300), (120, 80), (140, -100), (100, 200)] {
        voices.append(Voice(engine: "text2wave", name: voice, rate: rate, pitch: pitch))
      }
    }
    for name in ["slt", "rms", "awb", "kal16", "kal"] {
      for (rate, pitch) in [(110, 90), (150, 130), (130, 170), (120, 110), (140, 150), (100, 120)] {
        voices.append(Voice(engine: "flite", name: name, rate: rate, pitch: pitch))
      }
    }
    return voices
  }

  /// espeak-ng's English accents, for the adaptation voices and the benchmark's unheard ones.
  public static let espeakAccents = [
    "en-us", "en-gb", "en-029", "en-gb-x-gbclan", "en-us-nyc", "en-gb-x-gbcwmd", "en-gb-scotland", "en-gb-x-rp",
  ]

  /// espeak-ng's variants (its voices/!v) heard once each in adaptation, besides the sixteen
  /// heard in every round. Left out, for checking voices the model has not heard
  /// (`heldOutVariants`): 24 others; and whisper and whisperf (no voicing).
  public static let moreAdaptationVariants = [
    "Alicia", "Andrea", "AnxiousAndy", "Demonic", "Denis", "Diogo", "Gene", "Gene2", "Henrique", "Hugo", "Jacky", "Lee",
    "Marco", "Mario", "Michael", "Nguyen", "RicishayMax", "RicishayMax2", "RicishayMax3", "Tweaky", "UniRobot", "anika",
    "anikaRobot", "announcer", "antonio", "boris", "caleb", "croak", "ed", "edward2", "fast", "grandma", "gustave", "iven2",
    "iven3", "iven4", "kaukovalta", "klatt3", "klatt5", "klatt6", "marcelo", "miguel", "norbert", "pablo", "pedro",
    "quincy", "rob", "robosoft", "robosoft2", "robosoft3", "robosoft4", "robosoft5", "robosoft6", "robosoft7", "robosoft8",
    "sandro", "steph2", "steph3", "victor",
  ].map { "+" + $0 }

  /// What the adaptation voices say: commands alone and carried (directions, words)...
  public static let adaptationCommands: [(String, [Direction])] = [
    ("up", [.up]), ("down", [.down]), ("left", [.left]), ("right", [.right]),
    ("move down", [.down]), ("go left now", [.left]), ("move the ninja up", [.up]), ("please go right", [.right]),
    ("down. up.", [.down, .up]), ("right. left. down.", [.right, .left, .down]), ("go down please", [.down]),
    ("move right", [.right]), ("please move up", [.up]), ("go left", [.left]),
    // Each direction after "go" and before "now" and "please" (a vowel or a nasal joined to
    // it that the list above gave one or two directions only), and the bare words again, so
    // that they keep their share (21 places after the first: with 20 phrases a voice, a voice
    // says each once).
    ("go up", [.up]), ("go down", [.down]), ("go right", [.right]), ("go up now", [.up]), ("go down now", [.down]),
    ("go right now", [.right]), ("please go up", [.up]),
    ("up", [.up]), ("down", [.down]), ("left", [.left]), ("right", [.right]),
    ("please go down", [.down]), ("please go left", [.left]), ("up now", [.up]), ("down now", [.down]), ("left now", [.left]), ("right now", [.right]),
    ("up please", [.up]), ("down please", [.down]), ("left please", [.left]), ("right please", [.right]),
    ("move up", [.up]), ("move left", [.left]), ("move the ninja down", [.down]), ("move the ninja left", [.left]),
    ("please move down", [.down]), ("please move left", [.left]), ("go up please", [.up]),
    // Commands said one after another without pauses, as synthesizers say them when the text
    // has no full stops (none of the benchmark's phrases): a "down" running into the next word
    // is said shorter and joined to it.
    ("up up", [.up, .up]), ("down left", [.down, .left]), ("right up", [.right, .up]), ("left left", [.left, .left]),
    ("up down right", [.up, .down, .right]), ("left right down", [.left, .right, .down]), ("down and up", [.down, .up]),
    ("right then left", [.right, .left]), ("down down", [.down, .down]), ("up left down right", [.up, .left, .down, .right]),
  ]

  /// ...and other words, many of them close to a command ("done", "cup", "light").
  public static let adaptationOthers = [
    "done", "don't", "town", "drown", "found", "gown", "cup", "pup", "op", "light", "let", "lift", "live", "bright",
    "night", "white", "fight", "ride", "go", "no", "off", "on", "yes", "stop", "dog", "top", "one", "zero",
    "seven", "bird", "house", "happy", "follow", "forward", "learn", "tree", "wow", "the town is down the road",
    "let me see", "I don't know", "a cup of coffee", "turn off the light", "good morning", "how are you",
    // Everyday sentences (none of the benchmark's), so that the other words explain a voice's
    // speech as well as the commands do.
    "see you tomorrow", "thank you very much", "close the window", "where is my phone", "it is cold outside",
    "I want some water", "read me the news", "the dog is sleeping", "how old are you", "that was great",
    "nice to meet you", "what day is it", "tell me a joke", "I will be there soon", "wait a minute", "good evening",
  ]

  /// One clip of the adaptation corpus: a WAV file in the cache and what it says.
  public struct SyntheticClip: Sendable {
    public var path: String
    public var expected: [Direction]
    public var words: String
    /// The voice.
    public var speaker: String
  }

  /// The adaptation corpus: every voice says a rotating share of the commands and the other words.
  public func adaptationClips(commandsPerVoice: Int = 6, othersPerVoice: Int = 6, rounds: Int = 2) throws -> [SyntheticClip] {
    var clips: [SyntheticClip] = []
    let voices = Self.adaptationVoices(rounds: rounds).filter { Tools.which($0.engine) != nil }
    var nextCommand = 0
    var nextOther = 0
    for voice in voices {
      progress("synthesizing \(voice.label)")
      let speaker = voice.label.replacingOccurrences(of: " ", with: "")
      var said: [(String, [Direction])] = []
      for _ in 0..<commandsPerVoice {
        // A phrase listed twice (the bare words) is said once by each voice; a voice that has
        // said every phrase says no more.
        var skipped = 0
        while skipped < Self.adaptationCommands.count,
          said.contains(where: { $0.0 == Self.adaptationCommands[nextCommand % Self.adaptationCommands.count].0 })
        {
          nextCommand += 1
          skipped += 1
        }
        if skipped == Self.adaptationCommands.count { break }
        said.append(Self.adaptationCommands[nextCommand % Self.adaptationCommands.count])
        nextCommand += 1
      }
      for _ in 0..<othersPerVoice {
        said.append((Self.adaptationOthers[nextOther % Self.adaptationOthers.count], []))
        nextOther += 1
      }
      for (text, expected) in said {
        let samples = try speak(text, voice: voice)
        let words = text.lowercased().replacingOccurrences(of: ".", with: "")
        let file = cache.appendingPathComponent("adapt-\(Self.cacheKey(text, voice: voice)).wav")
        if !FileManager.default.fileExists(atPath: file.path) { try Tools.write(samples, to: file.path) }
        clips.append(SyntheticClip(path: file.path, expected: expected, words: words, speaker: speaker))
      }
    }
    return clips
  }
}
