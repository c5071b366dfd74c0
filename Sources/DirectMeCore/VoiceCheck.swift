#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// Whether an utterance sounds like the voice a personal model was made for.
///
/// A personal model (`directme personalize`) is better for its owner and worse for other
/// people: it hears their other words as commands more often. So it is used only for
/// utterances in its owner's voice; the others are decided by the model it was made from.
/// The voice is told by the utterance's mean cepstrum (its average spectral envelope: the
/// speaker's vocal tract and the microphone and room), over the louder half of its frames,
/// against the enrollment's, in units of how much that mean varies between people.
public struct VoiceProfile: ModelFolderFile, Hashable, Sendable {
  /// The enrolled voice's mean cepstrum (coefficients 1...12; 0 is loudness).
  public var mean: [Double]
  /// How much each coefficient's utterance mean varies between people (`VoicePopulation`).
  public var scale: [Double]
  /// Utterances at most this far (root mean square, in units of `scale`) are the voice's.
  public var threshold: Double
  /// The model folder for other voices (the model the personal one was made from).
  public var otherVoicesModel: String
  /// The personal model was adapted from the other-voices model's model for routed voices
  /// (synthetic speech): it decides only the owner's utterances that would be routed there.
  public var routedOnly: Bool?
  /// The enrollment recordings' voice statistics as the routing measures them
  /// (`VoiceStatistic.routing`): an utterance within `threshold` is still not the owner's
  /// when other voices' recordings (the references of the other-voices model's routing:
  /// people and synthetic voices) lie nearer it than these (see `check(_:routing:against:)`).
  public var recordings: [[Double]]?
  /// How much farther than the other voices' references the enrollment's recordings may lie
  /// (the references hold synthetic voices like the owner's, at other rates and pitches): as
  /// far as `share` of the enrollment's recordings lay, each against the others.
  public var recordingsMargin: Double?
  /// The owner's utterances are heard through a front end warped by this factor (sphinxbase's
  /// inverse linear warp: frequencies divided by it), chosen at enrollment as the factor that
  /// heard their recordings best; nil (or 1): as they are. A voice far above or below the
  /// model's people's (a child's) is brought nearer theirs by a warp, which adapting on a
  /// minute of audio does not do (see `PersonalizeJob.ownerWarp`).
  public var warp: Double?
  /// How it was made, for people reading the file.
  public var notes: [String: String]

  public init(mean: [Double], scale: [Double], threshold: Double, otherVoicesModel: String, notes: [String: String] = [:]) {
    self.mean = mean
    self.scale = scale
    self.threshold = threshold
    self.otherVoicesModel = otherVoicesModel
    self.notes = notes
  }

  /// The file beside a personal model's acoustic model.
  public static let fileName = "voice.json"

  /// How far an utterance's mean cepstrum (`VoiceStatistic.of`) lies from the voice's.
  public func distance(_ statistic: [Double]) -> Double {
    let count = min(statistic.count, mean.count, scale.count)
    guard count > 0 else { return .infinity }
    var sum = 0.0
    for index in 0..<count {
      let z = (statistic[index] - mean[index]) / max(scale[index], 1e-6)
      sum += z * z
    }
    return (sum / Double(count)).squareRoot()
  }

  /// The voice check of one utterance.
  public func check(_ statistic: [Double]?) -> VoiceMatch {
    guard let statistic else { return VoiceMatch(distance: .infinity, threshold: threshold) }
    return VoiceMatch(distance: distance(statistic), threshold: threshold)
  }

  /// The voice check of one utterance, also against other voices: the mean cepstrum alone
  /// tells people apart but hardly synthetic voices (flite's slt and rms lay as near espeak-ng's
  /// Scottish voice enrolled as its own takes did). So an utterance within `threshold` must
  /// also lie nearer the enrollment's recordings than the `references`' people and voices
  /// (`routing`: the utterance's `VoiceStatistic.routing`; the mean distance to the nearest
  /// few of each, in units of the references' scale).
  public func check(_ statistic: [Double]?, routing: [Double]?, against references: VoiceRouting?) -> VoiceMatch {
    var match = check(statistic)
    guard match.matches, let routing, let references, let recordings, !recordings.isEmpty else { return match }
    let own = references.nearest(routing, among: ReferenceTable(recordings))
    let others = references.nearestReference(routing)
    if own.isFinite, others.isFinite {
      match.nearestOwn = own
      match.nearestOthers = others
      if own > others + (recordingsMargin ?? 0) { match.decided = false }
    }
    return match
  }

  /// A profile made from the statistics of the enrollment's recordings: their mean, and a
  /// threshold `slack` times the distance that `share` of them lie within (so one odd take
  /// does not widen it, and the owner's voice on another day still passes).
  ///
  /// A stranger let in is decided by a model adapted to someone else (flite's awb enrolled:
  /// kal16, another flite man, 3 -> 6 errors of 30 at a slack of 1.2), an owner kept out
  /// only loses the adaptation's gain for that utterance; at 1.1 kal16 has 4, awb keeps its
  /// 8 -> 3, and the four real people enrolled by `directme-bench enroll` keep their
  /// figures while the other people's errors with their models fall from 60 to 57 of 960.
  public static func enroll(
    _ statistics: [[Double]], recordings: [[Double]]? = nil, references: VoiceRouting? = nil, population: VoicePopulation,
    otherVoicesModel: String, share: Double = 0.9, slack: Double = 1.1
  ) -> VoiceProfile? {
    let width = population.scale.count
    let usable = statistics.filter { $0.count == width }
    guard usable.count >= 3, width > 0 else { return nil }
    let mean = (0..<width).map { index in usable.map { $0[index] }.reduce(0, +) / Double(usable.count) }
    var profile = VoiceProfile(mean: mean, scale: population.scale, threshold: 0, otherVoicesModel: otherVoicesModel)
    /// The value that `share` of `sorted` values lie within.
    func quantile(_ sorted: [Double]) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * share).rounded()))] }
    let distances = usable.map(profile.distance).sorted()
    let within = quantile(distances)
    profile.threshold = within * slack
    // Each recording against the rest of them and against the other voices.
    if let recordings, recordings.count >= 3, let references {
      let leans = recordings.indices.map { index in
        var rest = recordings
        rest.remove(at: index)
        return references.nearest(recordings[index], among: ReferenceTable(rest)) - references.nearestReference(recordings[index])
      }.filter(\.isFinite).sorted()
      if !leans.isEmpty {
        profile.recordings = recordings
        profile.recordingsMargin = max(0, quantile(leans))
      }
    }
    profile.notes = [
      "recordings": "\(usable.count)",
      "enrollment distances": String(
        printf: "median %.2f, %.0f%% within %.2f, largest %.2f", distances[distances.count / 2], share * 100, within,
        distances.last!),
      "threshold": String(printf: "%.1f x %.2f", slack, within),
    ]
    if let margin = profile.recordingsMargin {
      profile.notes["other voices"] = String(
        printf: "the recordings may lie %.2f farther than other voices' (%.0f%% of them, each against the rest)", margin,
        share * 100)
    }
    return profile
  }

  public static let kind = "voice profile"

  /// Why the profile cannot be used, nil when it can.
  public var problem: String? {
    guard !mean.isEmpty, mean.count == scale.count, threshold > 0 else {
      return "mean and scale must have the same length, the threshold above 0"
    }
    if let warp, !(warp >= 0.5 && warp <= 2) { return "the warp must lie within 0.5 to 2 (got \(warp))" }
    return nil
  }
}

/// How one utterance's voice compared with a personal model's.
public struct VoiceMatch: Codable, Hashable, Sendable {
  public var distance: Double
  public var threshold: Double
  /// Set when something besides the distance decided (a `routedOnly` profile's utterance
  /// that is not routed is not the owner's; one nearer other voices than the owner's).
  public var decided: Bool?
  /// How near the enrollment's recordings and the other voices' lay, when compared
  /// (`VoiceProfile.check(_:routing:against:)`).
  public var nearestOwn: Double?
  public var nearestOthers: Double?
  public init(distance: Double, threshold: Double, decided: Bool? = nil) {
    self.distance = distance
    self.threshold = threshold
    self.decided = decided
  }
  /// The utterance is in the enrolled voice: the personal model decides it.
  public var matches: Bool { decided ?? (distance <= threshold) }

  // Infinity is not JSON: a missing distance (no voiced frames) is written as null.
  enum CodingKeys: String, CodingKey {
    case distance, threshold, decided
    case nearestOwn = "nearest_own", nearestOthers = "nearest_others"
  }
  public init(from decoder: any Swift.Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    distance = try container.decodeIfPresent(Double.self, forKey: .distance) ?? .infinity
    threshold = try container.decode(Double.self, forKey: .threshold)
    decided = try container.decodeIfPresent(Bool.self, forKey: .decided)
    nearestOwn = try container.decodeIfPresent(Double.self, forKey: .nearestOwn)
    nearestOthers = try container.decodeIfPresent(Double.self, forKey: .nearestOthers)
  }
  public func encode(to encoder: any Swift.Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(distance.isFinite ? distance : nil, forKey: .distance)
    try container.encode(threshold, forKey: .threshold)
    try container.encodeIfPresent(decided, forKey: .decided)
    try container.encodeIfPresent(nearestOwn, forKey: .nearestOwn)
    try container.encodeIfPresent(nearestOthers, forKey: .nearestOthers)
  }
}

/// How people's voices vary: the spread of utterances' mean cepstra over many speakers
/// (`voices.json` beside the shipped model, from the recordings it was adapted on).
public struct VoicePopulation: ModelFolderFile, Hashable, Sendable {
  public var mean: [Double]
  public var scale: [Double]
  public var notes: [String: String]

  public init(mean: [Double], scale: [Double], notes: [String: String] = [:]) {
    self.mean = mean
    self.scale = scale
    self.notes = notes
  }

  public static let fileName = "voices.json"

  /// The spread of `statistics` (one a recording).
  public static func measure(_ statistics: [[Double]], notes: [String: String] = [:]) -> VoicePopulation? {
    guard statistics.count >= 2, let width = statistics.first?.count, width > 0,
      statistics.allSatisfy({ $0.count == width })
    else { return nil }
    let count = Double(statistics.count)
    let mean = (0..<width).map { index in statistics.map { $0[index] }.reduce(0, +) / count }
    let scale = (0..<width).map { index in
      (statistics.map { ($0[index] - mean[index]) * ($0[index] - mean[index]) }.reduce(0, +) / (count - 1)).squareRoot()
    }
    return VoicePopulation(mean: mean, scale: scale, notes: notes)
  }

  public static let kind = "voice statistics file"
  public var problem: String? { nil }
}

/// An utterance's voice statistic: its mean cepstrum (coefficients 1...12) over the louder
/// half of its frames (by coefficient 0, log energy), where the speech is.
public enum VoiceStatistic {
  public static func of(_ cepstra: [[Float]]) -> [Double]? {
    mean(of: cepstra, count: 13, loudShare: 0.5)
  }

  /// The mean of coefficients 1 to `count` - 1 over the loudest `loudShare` of the frames of
  /// `count` coefficients or more (by c0), nil for fewer than 10 such frames.
  public static func mean(of cepstra: [[Float]], count: Int, loudShare: Double) -> [Double]? {
    let frames = cepstra.filter { $0.count >= count }
    guard count >= 2, frames.count >= 10 else { return nil }
    let loud = loudest(frames, share: loudShare)
    return (1..<count).map { index in loud.map { Double($0[index]) }.reduce(0, +) / Double(loud.count) }
  }

  /// The frames whose c0 (log energy) is at least that of the frame `share` of the way down
  /// from the loudest (0.5: the louder half, the median included).
  static func loudest(_ frames: [[Float]], share: Double) -> [[Float]] {
    let energies = frames.map(\.[0]).sorted()
    let cut = energies[min(energies.count - 1, max(0, Int((Double(energies.count) * (1 - share)).rounded(.down))))]
    return frames.filter { $0[0] >= cut }
  }

  /// The statistic `VoiceRouting` tells voices apart by (25 numbers): the mean cepstrum as
  /// above, how much each coefficient varies over the same frames (standard deviation), and
  /// how fast the spectrum changes (the mean absolute change of coefficients 1...12 from
  /// frame to frame, over all frames). Synthetic voices are steadier than people.
  public static func routing(_ cepstra: [[Float]]) -> [Double]? {
    let frames = cepstra.filter { $0.count >= 13 }
    guard frames.count >= 10, let mean = of(frames) else { return nil }
    let loud = loudest(frames, share: 0.5)
    let spread = (1..<13).map { index in
      let values = loud.map { Double($0[index]) }
      let average = values.reduce(0, +) / Double(values.count)
      return (values.map { ($0 - average) * ($0 - average) }.reduce(0, +) / Double(values.count)).squareRoot()
    }
    var change = 0.0
    for index in 1..<frames.count {
      for coefficient in 1..<13 { change += abs(Double(frames[index][coefficient] - frames[index - 1][coefficient])) }
    }
    return mean + spread + [change / Double((frames.count - 1) * 12)]
  }
}

/// A voice file that could not be read.
public struct VoiceFileError: Error, CustomStringConvertible, Sendable {
  public var file: String
  public var problem: String
  public var description: String { "\(file): \(problem)" }
}

extension Detector {
  /// With a personal model (a folder holding `voice.json`): the detector of the model other
  /// voices are decoded with (its `detector.json`), which decides their utterances.
  public static func otherVoices(ofModel folder: String) throws -> Detector? {
    guard let profile = try VoiceProfile.load(modelFolder: folder) else { return nil }
    let path = profile.otherVoicesModel + "/detector.json"
    return FileManager.default.fileExists(atPath: path) ? try Detector.load(path) : nil
  }
}

/// Sends utterances in voices the model hears badly to a model adapted to such voices.
///
/// DirectMe's model was adapted on people; synthetic speech (espeak-ng's formant voices, the
/// festival diphone voices) says "down" in a way it does not know, and adapting the one model
/// to both cost people accuracy. So the shipped model folder holds a second model, adapted
/// further on synthetic voices, and each utterance whose voice statistic
/// (`VoiceStatistic.routing`) lies nearer the synthetic voices' than people's (the mean
/// distance to its `neighbours` nearest references of each kind, by `margin`) is decoded
/// with it.
public struct VoiceRouting: Codable, Hashable, Sendable {
  /// What the routed voices are, for reports ("synthetic").
  public var name: String
  /// The routed voices' model folder, relative to the folder holding this file.
  public var model: String
  /// The routed voices' model for narrowband utterances (`Bandwidth.isNarrowband`: through a
  /// telephone or Bluetooth link, festival's 8 kHz voices), relative to the folder holding
  /// this file; nil: `model` hears them too.
  public var narrowbandModel: String?
  /// People's model for narrowband utterances that are not routed (a telephone's or a
  /// Bluetooth headset's 8 kHz link), relative to the folder holding this file: people's
  /// model adapted on its recordings through such a link. Nil: people's model hears them.
  public var peopleNarrowbandModel: String?
  /// How much each number of the statistic varies between people's recordings.
  public var scale: [Double]
  /// Voice statistics (`VoiceStatistic.routing`) of people's recordings (the model's own voices).
  public var people: ReferenceTable
  /// Voice statistics of the routed voices' recordings.
  public var voices: ReferenceTable
  /// The same of recordings through a narrowband (8 kHz) link, against which a narrowband
  /// utterance is measured too (nil: against `people` and `voices` alone; the final pass
  /// routes it when either measure does). Through such a link a voice lies nearer other
  /// narrowband voices than its own: festival's ked at 8 kHz was routed 8 times in 46
  /// against references mostly wideband.
  public var narrowbandPeople: ReferenceTable?
  public var narrowbandVoices: ReferenceTable?
  /// How much nearer the narrowband routed voices must be (nil: `margin`). Through 8 kHz
  /// all voices lie nearer each other: festival's ked and kal at 8 kHz leaned 0.01-0.15
  /// their way, where 0.15 is the margin for wideband voices.
  public var narrowbandMargin: Double?
  public var neighbours: Int
  /// How much nearer (root mean square, in units of `scale`) the routed voices must be.
  public var margin: Double
  /// An utterance leaning the routed voices' way by more than this but not by `margin` is
  /// routed when the routed voices' model fits its audio better than people's model by
  /// `fitMargin` (the best senone's log-likelihood per 10-ms frame, in pocketsphinx's scaled
  /// units; `loudFit`). Nil: by `margin` alone. The statistic mixes voices up near the
  /// margin (espeak-ng's breathy variants, unheard in adaptation, lean 0-0.15 their way, as
  /// do 30% of people's words), the models' fit much less: of the utterances leaning 0-0.15,
  /// none of 230 by tuning speakers, 72 sequences of theirs, 116 of their words 300 cents
  /// higher or lower and 147 of the dev set fit the synthetic model better by more than 2.9;
  /// 22 of 28 by synthetic voices did by more than 8.
  public var fitLean: Double?
  public var fitMargin: Double?
  public var notes: [String: String]
  /// In a routing file whose references lie beside it (`write(toFolder:)`): that file's name
  /// and its rows of people's and of the voices' references (`nil` once loaded, and in a file
  /// holding its references itself).
  public var referencesFile: String?
  public var referenceRows: [Int]?

  public init(
    name: String, model: String, narrowbandModel: String? = nil, scale: [Double], people: [[Double]], voices: [[Double]],
    neighbours: Int = 5, margin: Double = 0.15, notes: [String: String] = [:]
  ) {
    self.name = name
    self.model = model
    self.narrowbandModel = narrowbandModel
    self.scale = scale
    self.people = ReferenceTable(Self.threeDecimals(people))
    self.voices = ReferenceTable(Self.threeDecimals(voices))
    self.neighbours = neighbours
    self.margin = margin
    self.notes = notes
  }

  public static let fileName = "routing.json"

  /// The mean distance from `statistic` to its `neighbours` nearest `references`.
  ///
  /// Only the nearest few are kept as the references go by (in order, nearest first), not
  /// all of them sorted: routing measures every utterance against thousands.
  func nearest(_ statistic: [Double], among references: ReferenceTable) -> Double {
    let wanted = max(1, neighbours)
    var nearest: [Double] = []
    nearest.reserveCapacity(wanted + 1)
    let width = references.width
    guard width == statistic.count && width == scale.count else { return .infinity }
    for row in 0..<references.count {
      let reference = references[row]
      var sum = 0.0
      for index in 0..<width {
        let z = (statistic[index] - Double(reference[reference.startIndex + index])) / max(scale[index], 1e-6)
        sum += z * z
      }
      let distance = (sum / Double(width)).squareRoot()
      guard nearest.count < wanted || distance < nearest[wanted - 1] else { continue }
      nearest.insert(distance, at: nearest.firstIndex { $0 > distance } ?? nearest.endIndex)
      if nearest.count > wanted { nearest.removeLast() }
    }
    guard !nearest.isEmpty else { return .infinity }
    return nearest.reduce(0, +) / Double(nearest.count)
  }

  /// The mean distance from `statistic` to the nearest references of the kind it lies nearer:
  /// how near other voices are (`VoiceProfile.check(_:routing:against:)`).
  func nearestReference(_ statistic: [Double]) -> Double {
    min(nearest(statistic, among: people), nearest(statistic, among: voices))
  }

  /// How much nearer the routed voices are than people (positive: route it); a `narrowband`
  /// utterance measured against the narrowband references, when there are some.
  public func lean(_ statistic: [Double], narrowband: Bool = false) -> Double {
    if narrowband, let people = narrowbandPeople, let voices = narrowbandVoices {
      return nearest(statistic, among: people) - nearest(statistic, among: voices)
    }
    return nearest(statistic, among: people) - nearest(statistic, among: voices)
  }

  /// A model's fit to an utterance: the mean of its frames' fits (`fits`, one per 10-ms
  /// frame) over the frames within `range` dB of the loudest (`energies`, the frames'
  /// levels): the voice and the room, not the faintest frames (digital silence filled with
  /// noise of 2 LSB, which fits the synthetic voices' model better: 1 of 72 people's
  /// sequences joined with such pauses fit it better by 8 counting every frame, none by 2
  /// without them). Nil without such frames.
  public static func loudFit(_ fits: [Float], energies: [Double], range: Double = fitLoudRange) -> Double? {
    let count = min(fits.count, energies.count)
    guard count > 0, let loudest = energies[..<count].max() else { return nil }
    var sum = 0.0
    var loud = 0
    for index in 0..<count where energies[index] >= loudest - range {
      sum += Double(fits[index])
      loud += 1
    }
    return loud > 0 ? sum / Double(loud) : nil
  }

  /// See `loudFit`.
  public static let fitLoudRange = 60.0

  /// Whether an utterance leaning `lean` the routed voices' way goes to their model only if
  /// that model fits it better (see `fitLean`).
  public func asksFit(lean: Double) -> Bool {
    guard let fitLean, fitMargin != nil else { return false }
    return lean > fitLean && lean <= margin
  }

  /// Whether an utterance goes to the routed voices' model (not when too short to tell).
  public func routes(_ statistic: [Double]?, narrowband: Bool = false) -> Bool {
    guard let statistic else { return false }
    return routes(lean: lean(statistic, narrowband: narrowband), narrowband: narrowband)
  }

  /// The same for an utterance whose `lean` is measured already.
  public func routes(lean: Double, narrowband: Bool = false) -> Bool {
    lean > (narrowband && hasNarrowbandReferences ? narrowbandMargin ?? margin : margin)
  }

  /// Whether the routing measures narrowband utterances on their own (`narrowbandPeople`).
  public var hasNarrowbandReferences: Bool { narrowbandPeople != nil && narrowbandVoices != nil }

  /// The routing beside a model, if it has one.
  public static func load(modelFolder: String) throws -> VoiceRouting? {
    let path = modelFolder + "/" + fileName
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw VoiceFileError(file: path, problem: "cannot read the voice routing")
    }
    var routing: VoiceRouting
    do {
      routing = try JSONDecoder().decode(VoiceRouting.self, from: data)
    } catch {
      throw VoiceFileError(file: path, problem: "not a voice routing file (\(error))")
    }
    if let name = routing.referencesFile {
      try routing.readReferences(from: modelFolder + "/" + name)
    }
    guard !routing.people.isEmpty, !routing.voices.isEmpty, !routing.scale.isEmpty else {
      throw VoiceFileError(file: path, problem: "not a voice routing file (no references)")
    }
    return routing
  }

  /// The name of the file `write(toFolder:)` puts the references in.
  public static let referencesFileName = "routing-references.f32"

  /// Writes the routing into `folder`: `routing.json`, and its references beside it as
  /// 32-bit floats (little-endian, people's rows, the voices', then the narrowband people's
  /// and voices' if any), the numbers a routing holds in memory. 13,179 references of 25
  /// numbers were 2.3 MB as JSON text; as floats 1.3 MB, read without parsing.
  public func write(toFolder folder: String) throws {
    var metadata = self
    metadata.people = ReferenceTable([])
    metadata.voices = ReferenceTable([])
    metadata.narrowbandPeople = nil
    metadata.narrowbandVoices = nil
    metadata.referencesFile = Self.referencesFileName
    let tables = [people, voices] + [narrowbandPeople, narrowbandVoices].compactMap { $0 }
    metadata.referenceRows = tables.map(\.count)
    try tables.reduce(Data()) { $0 + $1.littleEndianFloats }.write(
      to: URL(fileURLWithPath: folder + "/" + Self.referencesFileName), options: .atomic)
    try metadata.json().write(to: URL(fileURLWithPath: folder + "/" + Self.fileName), options: .atomic)
  }

  /// Reads the references from the file `write(toFolder:)` wrote, checked against the rows
  /// and width the routing file gives.
  private mutating func readReferences(from path: String) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw VoiceFileError(file: path, problem: "cannot read the voice routing's references")
    }
    let width = scale.count
    guard let rows = referenceRows, rows.count == 2 || rows.count == 4, rows.allSatisfy({ $0 > 0 }), width > 0 else {
      throw VoiceFileError(file: path, problem: "the voice routing file gives no rows of references for it")
    }
    let expected = rows.reduce(0, +) * width * MemoryLayout<Float>.size
    guard data.count == expected else {
      throw VoiceFileError(
        file: path,
        problem: "\(data.count) bytes where \(rows.map(String.init).joined(separator: " + ")) references of \(width) 32-bit floats take \(expected)")
    }
    var tables: [ReferenceTable] = []
    var start = 0
    for count in rows {
      tables.append(ReferenceTable(width: width, littleEndianFloats: data, rows: start..<start + count))
      start += count
    }
    people = tables[0]
    voices = tables[1]
    narrowbandPeople = tables.count == 4 ? tables[2] : nil
    narrowbandVoices = tables.count == 4 ? tables[3] : nil
    referencesFile = nil
    referenceRows = nil
  }

  /// The routed voices' model folder, for a routing read from `modelFolder`.
  public func modelPath(in modelFolder: String) -> String { Self.path(of: model, in: modelFolder) }

  /// The routing read from `modelFolder` with the model folders it names as full paths (for
  /// loading them, or for a copy written elsewhere).
  public func withModelPaths(in modelFolder: String) -> VoiceRouting {
    var routing = self
    routing.model = Self.path(of: model, in: modelFolder)
    routing.narrowbandModel = narrowbandModel.map { Self.path(of: $0, in: modelFolder) }
    routing.peopleNarrowbandModel = peopleNarrowbandModel.map { Self.path(of: $0, in: modelFolder) }
    return routing
  }

  private static func path(of model: String, in modelFolder: String) -> String {
    model.hasPrefix("/") ? model : URL(fileURLWithPath: modelFolder).appendingPathComponent(model).standardizedFileURL.path
  }

  /// Compact JSON (the references are thousands of numbers), at the three decimals the
  /// references were rounded to when made (`init`): rounding by at most 0.0005, a thousandth
  /// of the smallest spread (0.53, the statistic's rate of change), far below any distance
  /// that decides a routing.
  public func json() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self) + Data("\n".utf8)
  }

  public static func threeDecimals(_ references: [[Double]]) -> [[Double]] {
    references.map { $0.map { ($0 * 1e3).rounded() / 1e3 } }
  }
}

/// Rows of numbers of one length (voice statistics), held as one run of 32-bit floats: the
/// routing's 13,000 references of 25 numbers, each row an array of doubles, took 3.2 MB of a
/// replay's memory; as one run of floats, 1.3 MB. A float keeps the three decimals a routing
/// file writes (the statistics lie within +-1000: seven significant digits at most); the
/// distances are computed in doubles. In JSON, an array of rows, each number written as the
/// shortest decimal that reads back as its float.
public struct ReferenceTable: Hashable, Sendable, Codable {
  /// Numbers per row (0 when there are no rows).
  public private(set) var width: Int
  private var values: [Float]

  /// `rows`, which must all have the length of the first.
  public init(_ rows: [[Double]]) {
    width = rows.first?.count ?? 0
    values = []
    values.reserveCapacity(rows.count * width)
    for row in rows {
      precondition(row.count == width, "reference rows of different lengths")
      values += row.map { Float($0) }
    }
  }

  /// Rows `rows` of a run of 32-bit little-endian floats, `width` to a row.
  init(width: Int, littleEndianFloats data: Data, rows: Range<Int>) {
    self.width = width
    values = data.withUnsafeBytes { bytes in
      (rows.lowerBound * width..<rows.upperBound * width).map { index in
        Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
      }
    }
  }

  /// The numbers as 32-bit little-endian floats, row after row.
  var littleEndianFloats: Data {
    var data = Data(capacity: values.count * MemoryLayout<Float>.size)
    for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
    return data
  }

  public var count: Int { width == 0 ? 0 : values.count / width }
  public var isEmpty: Bool { values.isEmpty }

  /// Row `index`'s numbers.
  public subscript(index: Int) -> ArraySlice<Float> {
    values[index * width..<(index + 1) * width]
  }

  /// The rows as doubles.
  public var rows: [[Double]] {
    (0..<count).map { self[$0].map { Double($0.description)! } }
  }

  public init(from decoder: any Swift.Decoder) throws {
    let rows = try decoder.singleValueContainer().decode([[Double]].self)
    guard rows.allSatisfy({ $0.count == rows.first?.count }) else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "reference rows of different lengths"))
    }
    self.init(rows)
  }

  public func encode(to encoder: any Swift.Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rows)
  }
}
