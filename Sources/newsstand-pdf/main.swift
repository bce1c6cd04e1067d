import Foundation
import PDF
import PDFEngine

// `newsstand-pdf`: the PDF worker `PDFWorker` starts beside `newsstand`. It alone links
// poppler, so no other process of the program pays for loading it, and a crash or hang in
// poppler ends here. `newsstand-pdf draw …` draws one page as cells and ends: what
// `newsstand render FILE.pdf` becomes (`PDFWorker.drawInstead`).
let arguments = Array(CommandLine.arguments.dropFirst())
if let request = DrawRequest(arguments: arguments) { exit(PDFPageDrawing.main(request)) }
exit(PDFWorkerServer.main(arguments: arguments))
