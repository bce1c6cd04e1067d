import Foundation
import PDFEngine

// `newsstand-pdf`: the PDF worker `PDFWorker` starts beside `newsstand`. It alone links
// poppler, so no other process of the program pays for loading it, and a crash or hang in
// poppler ends here.
exit(PDFWorkerServer.main(arguments: Array(CommandLine.arguments.dropFirst())))
