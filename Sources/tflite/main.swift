import Foundation
import TFLiteCommands

exit(await runTool(CommandLine.arguments))
