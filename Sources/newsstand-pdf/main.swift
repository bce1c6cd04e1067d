import Foundation
import PDFDrawing
import PDFEngine

// `newsstand-pdf`: the PDF worker `PDFWorker` starts beside `newsstand`. It alone links
// poppler, so no other process of the program pays for loading it, and a crash or hang in
// poppler ends here. `newsstand-pdf draw` draws one page as cells and ends, as
// `newsstand-pdf-draw` does without poppler (what `newsstand render FILE.pdf` starts).
let arguments = Array(CommandLine.arguments.dropFirst())
exit(arguments.first == "draw" ? PDFPageDrawing.main(arguments: Array(arguments.dropFirst())) : PDFWorkerServer.main(arguments: arguments))
