import ArgumentParser
import DirectMeApp
import DirectMeCommandLine
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

struct Personalize: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Adapt DirectMe to your voice from the recordings 'directme enroll' made, and use it from now on.",
    discussion: """
      Adapts the model in use (MLLR for a few minutes of audio), keeps its detector (--tune \
      learns one from your recordings instead), scores your recordings before and after, and \
      saves the new model as your default in \(UserSettings.path). A voice the model hears \
      badly (a child's, a very deep one) is first tried through warps of the front end, and \
      heard through the one that gets clearly more of your recordings right; only utterances \
      in your voice use your model and its warp. --reset goes back to DirectMe's shipped \
      model; --no-personal-model ignores it for one run.
      """
  )

  @Argument(help: ArgumentHelp("The folder 'directme enroll' wrote (or its labels.tsv).", valueName: "folder"))
  var folder: String?

  @Option(help: ArgumentHelp("Where to write the personal model (default: \(UserSettings.dataFolder)/personal-model).", valueName: "folder"))
  var out: String?

  @Flag(help: "Also learn the detector's operating point from your recordings (needs many takes and other phrases).")
  var tune = false

  @Flag(help: "Do not make it the default.")
  var noSave = false

  @Flag(help: "Forget the personal model: plain 'directme' uses DirectMe's shipped model again.")
  var reset = false

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  func validate() throws {
    guard reset || folder != nil else { throw ValidationError("give the folder 'directme enroll' wrote, or --reset") }
  }

  func run() throws {
    try reportingErrors {
      if reset {
        try UserSettings.reset()
        print("forgot the personal model: plain 'directme' uses \(Resources.defaultModel)")
        return
      }
      let labels = LabelsFormat.file(named: folder!)
      try PersonalizeJob(
        labels: labels, base: recognizer.model ?? Resources.defaultModel, dictionary: recognizer.dict,
        grammar: recognizer.grammar ?? Resources.defaultGrammar, out: out ?? UserSettings.dataFolder + "/personal-model",
        tune: tune, save: !noSave
      ).run()
    }
  }
}
