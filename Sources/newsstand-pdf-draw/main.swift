import Foundation
import PDFDrawing

// `newsstand-pdf-draw`: one page of a PDF drawn as cells for `newsstand render FILE.pdf`
// (`PDFWorker.draw`), by MuPDF alone: it starts without loading poppler and the ~50
// libraries behind it, which the worker `newsstand-pdf` needs for text. Contained like it.
exit(PDFPageDrawing.main(arguments: Array(CommandLine.arguments.dropFirst())))
