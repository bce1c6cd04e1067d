import Foundation
import Imaging
import IssueArchive
import Terminal
import TextLayout

/// Comic pages: one page fitted to the window, zoomed in steps and panned when larger than
/// the window; pages turn in reading order, and the arrows follow a manga's right-to-left.
extension ReaderScreen {
    static let zoomLevels: [Double] = [1, 1.5, 2, 3, 4]

    /// Where a page is drawn: the rows between the title bar and the status line.
    var pageView: Rect { Rect(x: 1, y: 2, width: max(1, size.width - 2), height: visibleRows) }

    var isZoomed: Bool { zoomIndex > 0 }

    func handleComicKey(_ key: Key) -> Bool {
        let forwardArrow: Key = content.rightToLeft ? .left : .right
        let stepX = max(1, pageView.width / 4)
        let stepY = max(1, pageView.height / 4)
        switch key {
        case .character(" "), .pageDown, .enter, .character("f"): turnPage(forward: true)
        case .backspace, .pageUp, .character("b"): turnPage(forward: false)
        case .character("+"), .character("="), .character("z"): zoom(by: 1)
        case .character("-"), .character("Z"): zoom(by: -1)
        case .left, .character("h"):
            if isZoomed { pan.x -= stepX } else { turnPage(forward: forwardArrow == .left) }
        case .right, .character("l"):
            if isZoomed { pan.x += stepX } else { turnPage(forward: forwardArrow == .right) }
        case .up, .character("k"):
            if isZoomed { pan.y -= stepY } else { turnPage(forward: false) }
        case .down, .character("j"):
            if isZoomed { pan.y += stepY } else { turnPage(forward: true) }
        case .character("]"): turnPage(forward: !content.rightToLeft)
        case .character("["): turnPage(forward: content.rightToLeft)
        case .character("g"), .home: goTo(article: 0)
        case .character("G"), .end: goTo(article: articleCount - 1)
        case .character("t"): openContents()
        case .character("/"), .character("n"), .character("N"): findNext(forward: true)
        default: return false
        }
        return true
    }

    /// Next or previous page in reading order; a new page starts at its top-left (top-right
    /// for manga) at the same zoom.
    func turnPage(forward: Bool) {
        let target = article + (forward ? 1 : -1)
        guard goTo(article: target) else {
            message = forward ? "The last page." : "The first page."
            return
        }
        zoomedPageSize = nil
        pan = (content.rightToLeft ? Int.max / 4 : 0, 0)
    }

    /// Steps the zoom, keeping the middle of the window on the same part of the page.
    func zoom(by step: Int) {
        let wanted = max(0, min(Self.zoomLevels.count - 1, zoomIndex + step))
        guard wanted != zoomIndex else { message = step > 0 ? "Zoomed in as far as it goes." : "The whole page."; return }
        let view = pageView
        let ratio = Self.zoomLevels[wanted] / Self.zoomLevels[zoomIndex]
        let old = zoomedPageSize ?? (view.width, view.height)
        let centreX = old.columns <= view.width ? Double(old.columns) / 2 : Double(pan.x) + Double(view.width) / 2
        let centreY = old.rows <= view.height ? Double(old.rows) / 2 : Double(pan.y) + Double(view.height) / 2
        pan = (Int(centreX * ratio) - view.width / 2, Int(centreY * ratio) - view.height / 2)
        zoomIndex = wanted
        zoomedPageSize = nil
        message = "Zoom \(Int(Self.zoomLevels[wanted] * 100))%" + (wanted > 0 ? " — arrows or hjkl pan" : "")
    }

    func drawPage(into canvas: inout Canvas) {
        guard content.readingOrder.indices.contains(article),
              let file = try? IssueReader.resolve(content.readingOrder[article].path, in: root) else { return }
        if drawnPage != article {
            // Keep this page and its neighbours; the cover cache has the rest if needed again.
            drawnPage = article
            let near = Set((article - 1...article + 1).compactMap { index -> URL? in
                guard content.readingOrder.indices.contains(index) else { return nil }
                return try? IssueReader.resolve(content.readingOrder[index].path, in: root)
            })
            let pages = root.standardizedFileURL.resolvingSymlinksInPath().path + "/"
            painter.forget { $0.path.hasPrefix(pages) && !near.contains($0) }
        }
        let view = pageView
        let zoom = Self.zoomLevels[zoomIndex]
        var picture = painter.picture(file: file, columns: Int(Double(view.width) * zoom), rows: Int(Double(view.height) * zoom))
        if picture != nil {
            zoomedPageSize = picture.map { ($0.columns, $0.rows) }
        } else if isZoomed {
            // While the larger picture renders, the fitted one stands in.
            picture = painter.picture(file: file, columns: view.width, rows: view.height)
            zoomedPageSize = nil
        }
        guard let picture else {
            canvas.put("Drawing the page…", x: 2, y: 2, style: theme.readerQuote)
            return
        }
        // The part of the page the window shows; pan is kept inside the page.
        let sourceX = picture.columns > view.width ? max(0, min(pan.x, picture.columns - view.width)) : 0
        let sourceY = picture.rows > view.height ? max(0, min(pan.y, picture.rows - view.height)) : 0
        if zoomedPageSize != nil { pan = (sourceX, sourceY) }
        let x = view.x + max(0, (view.width - picture.columns) / 2)
        let y = view.y + max(0, (view.height - picture.rows) / 2)
        CoverPainter.draw(picture, into: &canvas, x: x, y: y, behind: theme.readerText,
                          part: Rect(x: sourceX, y: sourceY, width: min(view.width, picture.columns), height: min(view.height, picture.rows)))
        if picture.columns > view.width || picture.rows > view.height {
            drawPanBar(picture: picture, sourceX: sourceX, sourceY: sourceY, view: view, into: &canvas)
        }
        // The next page renders while this one is read, so turning to it is instant.
        if !isZoomed, content.readingOrder.indices.contains(article + 1),
           let next = try? IssueReader.resolve(content.readingOrder[article + 1].path, in: root) {
            _ = painter.picture(file: next, columns: view.width, rows: view.height)
        }
    }

    /// Where the window is on a zoomed page, on the title bar: "◧ 40%→ 10%↓".
    private func drawPanBar(picture: CellPicture, sourceX: Int, sourceY: Int, view: Rect, into canvas: inout Canvas) {
        let across = picture.columns > view.width ? sourceX * 100 / max(1, picture.columns - view.width) : 0
        let down = picture.rows > view.height ? sourceY * 100 / max(1, picture.rows - view.height) : 0
        let text = "◧ \(across)%→ \(down)%↓"
        canvas.put(text, x: max(0, (canvas.width - DisplayWidth.of(text)) / 2), y: 0, style: theme.statusLine)
    }
}
