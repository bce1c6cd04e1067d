import Imaging
import Terminal

/// The one effect that puts pictures in pixels on screen: each frame, after ncurses has
/// drawn its cells, the pictures the canvas places (`Canvas.pictures`, given by
/// `PixelPainter`) that are not on screen yet are written straight to the terminal, the
/// cursor put where each goes and back where ncurses left it. kitty is sent each image
/// once (`a=t` under its id) and then only placed (`a=p`, a few tens of bytes) wherever a
/// frame has it: a placement that moves is placed again under its placement id, one that
/// goes is deleted before ncurses draws the next frame, keeping the image; images are
/// freed when the painter forgets their picture, past `heldBudget`, on a resize and on
/// `clear` (see `release` for which go together). sixel's
/// and iTerm2's pictures that go are drawn over (their rows rewritten). Pictures the painter
/// drew as kitty's placeholder cells are text ncurses draws: each is only sent once, with
/// its virtual placement, when a frame first has it.
public final class PixelPlacer {
    public let painter: PixelPainter
    /// Inside tmux: every escape wrapped in its passthrough.
    public let throughTmux: Bool
    /// Inside tmux: the pane's top-left cell in the terminal around it (passthrough bytes
    /// reach that terminal, whose cursor knows nothing of panes).
    public let origin: (x: Int, y: Int)
    /// The pictures on screen, each with its kitty image id and placement id.
    private var onScreen: [PicturePlacement: Shown] = [:]
    private var screenSize: (width: Int, height: Int)?
    private var nextID: UInt32
    private var nextPlacementID: UInt32 = 1
    /// kitty: the images it holds (`a=t` once), shown or not, by the part of a picture each is.
    private var held: [PicturePart: Held] = [:]
    /// The pictures drawn as placeholder cells that kitty has, by number (sent once with
    /// their virtual placement; where no cells name them, nothing shows).
    private var sentForPlaceholders: [Int: Held] = [:]
    /// Counts frames (a placeholder picture is idle when the frame does not have it).
    private var frame = 0

    /// kitty's ids are the terminal's, shared with every program in the window: start far
    /// from 1, where others start.
    public static let firstID: UInt32 = 0x4E53_0001
    /// How many bytes of pixels kitty is left holding for pictures no frame shows (it
    /// keeps them decoded, and its store, some 320 MB, is the window's): past it the
    /// longest unused are freed, to be sent again if shown again.
    public let heldBudget: Int
    public static let standardHeldBudget = 64 << 20

    private struct Shown {
        var id: UInt32
        var placementID: UInt32
    }

    private struct Held {
        var id: UInt32
        /// Its pixels as kitty keeps them (at most its cells' pixels, 4 bytes each).
        var bytes: Int
        /// The frame that last had it (placeholder pictures: their cells are its placement).
        var shownIn = 0
    }

    public init(painter: PixelPainter, throughTmux: Bool = false, origin: (x: Int, y: Int) = (0, 0),
                heldBudget: Int = PixelPlacer.standardHeldBudget) {
        self.painter = painter
        self.heldBudget = heldBudget
        self.throughTmux = throughTmux
        self.origin = origin
        nextID = Self.firstID
    }

    /// The pictures on screen now.
    public var placements: Set<PicturePlacement> { Set(onScreen.keys) }

    /// The kitty ids of the images kitty holds for this placer (shown or not).
    public var heldIDs: Set<UInt32> { Set(held.values.map(\.id)).union(sentForPlaceholders.values.map(\.id)) }

    /// Inside tmux, while the pane is not shown (another tmux window in front): frames
    /// are drawn without their pictures (see `hide`).
    public private(set) var isHidden = false

    /// The pane went out of view: tmux drops what a pane it does not show passes through,
    /// so kitty's deletes of every image it holds for this placer are returned bare, for
    /// the terminal itself (`TmuxPaneWatch.writeToClients`). The placer forgets them, draws
    /// no picture until `unhide`, and then sends and places them all afresh.
    public func hide() -> [UInt8] {
        let output = kittyDeletes().flatMap { $0 }
        forgetAll()
        isHidden = true
        return output
    }

    /// The pane is shown again: the next `draw` draws every picture of its frame.
    public func unhide() { isHidden = false }

    /// Draws `canvas` on `backend`, then its pictures.
    public func draw(_ canvas: Canvas, on backend: TerminalBackend) {
        if isHidden {
            backend.draw(canvas)
            return
        }
        frame += 1
        let asCells = Set(canvas.pictures.lazy.map(\.picture).filter(painter.isHeldByPlaceholders))
        let wanted = canvas.pictures.filter { !asCells.contains($0.picture) }
        let sameScreen = screenSize.map { $0 == (canvas.width, canvas.height) } ?? false
        guard painter.graphics == .kitty else {
            drawOverCells(canvas, wanted: wanted, sameScreen: sameScreen, on: backend)
            return
        }
        // What goes first, before ncurses draws (the next screen's text is never under a
        // picture of the last): the images the painter let go, the placements that go.
        var before: [UInt8] = []
        if !sameScreen {
            // A new size: ncurses clears the screen (ED 2), which takes kitty's placements
            // and every image left without one: all are sent afresh.
            before += release(parts: Array(held.keys))
            onScreen = [:]
        }
        let forgotten = painter.takeForgotten()
        before += release(parts: held.keys.filter { forgotten.contains($0.picture) },
                          numbers: sentForPlaceholders.keys.filter(forgotten.contains))
        let gone = onScreen.keys.filter { !wanted.contains($0) }
        let redraw = wanted.filter { onScreen[$0] == nil }
        // A placement that goes lends its placement id to a new one of the same image:
        // placing it again under that id moves it (no frame without it).
        var movable: [UInt32: [UInt32]] = [:]
        for placement in gone {
            guard let shown = onScreen.removeValue(forKey: placement) else { continue }
            movable[shown.id, default: []].append(shown.placementID)
        }
        let inUse = Set(wanted.map(PicturePart.init))
        var after: [UInt8] = []
        for placement in redraw {
            let part = PicturePart(placement)
            var id: UInt32
            if let known = held[part] {
                id = known.id
            } else {
                // An image of the same picture no frame shows any more (a zoomed page panned,
                // a picture scrolled on): sent again under its id, which replaces it and
                // takes its placements with it; else a new id.
                let stale = held.first { $0.key.picture == part.picture && !inUse.contains($0.key) }
                id = stale?.value.id ?? nextID
                guard let payload = painter.encoded(for: placement) else { continue }
                if let stale {
                    held[stale.key] = nil
                    movable[id] = nil
                } else {
                    nextID = nextID == UInt32.max ? Self.firstID : nextID + 1
                }
                for chunk in KittyGraphics.transmit(png: payload, id: id) { after += wrapped(chunk) }
                held[part] = Held(id: id, bytes: pixelBytes(placement.rect.width, placement.rect.height))
            }
            let placementID = movable[id]?.popLast() ?? newPlacementID()
            after += wrapped(cursor(at: placement) + KittyGraphics.place(id: id, placement: placementID) + Array("\u{1B}8".utf8))
            onScreen[placement] = Shown(id: id, placementID: placementID)
        }
        for (id, placementIDs) in movable {
            for placementID in placementIDs { before += deletePlacement(Shown(id: id, placementID: placementID)) }
        }
        after += placeholderPictures(asCells)
        after += releaseIdle()
        screenSize = (canvas.width, canvas.height)
        backend.writeDirect(before)
        backend.draw(canvas)
        backend.writeDirect(after)
    }

    /// sixel and iTerm2: their pixels are in the cells. The rows the pictures that go
    /// covered are written again, and the pictures still wanted on those rows drawn again
    /// after.
    private func drawOverCells(_ canvas: Canvas, wanted: [PicturePlacement], sameScreen: Bool, on backend: TerminalBackend) {
        let gone = onScreen.keys.filter { !sameScreen || !wanted.contains($0) }
        var redraw = wanted.filter { !sameScreen || onScreen[$0] == nil }
        for placement in gone { backend.redrawRows(placement.rect.y..<placement.rect.maxY) }
        for placement in wanted where !redraw.contains(placement)
        && gone.contains(where: { $0.rect.y < placement.rect.maxY && placement.rect.y < $0.rect.maxY }) {
            redraw.append(placement)
        }
        backend.draw(canvas)
        for placement in gone { onScreen[placement] = nil }
        var output: [UInt8] = []
        for placement in redraw {
            guard let bytes = drawnOverCells(placement) else { continue }
            output += bytes
            onScreen[placement] = Shown(id: 0, placementID: 0)
        }
        screenSize = (canvas.width, canvas.height)
        backend.writeDirect(output)
    }

    /// The escapes for the pictures `numbers` drawn as placeholder cells that kitty does not hold
    /// yet: each sent under its id with one virtual placement of its whole size. No cursor
    /// moves: where they show is where ncurses drew their cells. Those the frame no longer
    /// names stay (nothing shows them), to be freed with the rest.
    private func placeholderPictures(_ numbers: Set<Int>) -> [UInt8] {
        var output: [UInt8] = []
        for number in numbers.sorted() {
            if sentForPlaceholders[number] != nil {
                sentForPlaceholders[number]?.shownIn = frame
                continue
            }
            guard let picture = painter.placeholderPicture(numbered: number) else { continue }
            for chunk in KittyGraphics.transmit(png: picture.bytes, id: picture.id) { output += wrapped(chunk) }
            output += wrapped(KittyPlaceholders.place(id: picture.id, columns: picture.size.columns, rows: picture.size.rows))
            sentForPlaceholders[number] = Held(id: picture.id, bytes: pixelBytes(picture.size.columns, picture.size.rows), shownIn: frame)
        }
        return output
    }

    /// Frees kitty's images of `parts` and of the placeholder pictures `numbers`, their
    /// placements with them, and, when it frees any, every image no placement shows: kitty
    /// 0.26 (its `filter_refs`) frees all of those on any `d=I`, so none is counted on after one.
    private func release(parts: [PicturePart] = [], numbers: [Int] = []) -> [UInt8] {
        guard !parts.isEmpty || !numbers.isEmpty else { return [] }
        let placedIDs = Set(onScreen.values.map(\.id))
        let unplaced = held.filter { !placedIDs.contains($0.value.id) }.keys
        var output: [UInt8] = []
        let freed = Set(parts).union(unplaced).compactMap { part in held[part].map { (part, $0) } }.sorted { $0.1.id < $1.1.id }
        for (part, image) in freed {
            held[part] = nil
            output += wrapped(KittyGraphics.delete(id: image.id))
            for (placement, shown) in onScreen where shown.id == image.id { onScreen[placement] = nil }
        }
        for number in numbers.sorted() {
            guard let image = sentForPlaceholders.removeValue(forKey: number) else { continue }
            output += wrapped(KittyGraphics.delete(id: image.id))
        }
        return output
    }

    /// Frees the images no frame shows when kitty holds more than `heldBudget` bytes of
    /// them, and, inside tmux (whose redraws clear the outer screen, and with it every image
    /// without a placement), those placed at the cursor after every frame.
    private func releaseIdle() -> [UInt8] {
        let placedIDs = Set(onScreen.values.map(\.id))
        let parts = held.filter { !placedIDs.contains($0.value.id) }
        let numbers = sentForPlaceholders.filter { $0.value.shownIn < frame }
        let bytes = parts.values.reduce(0) { $0 + $1.bytes } + numbers.values.reduce(0) { $0 + $1.bytes }
        if bytes > heldBudget { return release(parts: Array(parts.keys), numbers: Array(numbers.keys)) }
        return throughTmux ? release(parts: Array(parts.keys)) : []
    }

    /// Takes every picture off the screen and out of kitty's memory (before Ctrl-Z hands
    /// the terminal to the shell, which may clear kitty's images, and on quitting): kitty's
    /// are freed; sixel's go with the screen ncurses leaves. The next `draw` sends and
    /// draws them all again.
    public func clear(on backend: TerminalBackend) {
        let output = kittyDeletes().flatMap(wrapped)
        for placement in onScreen.keys { backend.redrawRows(placement.rect.y..<placement.rect.maxY) }
        forgetAll()
        backend.writeDirect(output)
    }

    /// kitty: the delete of each image it holds for this placer, bare.
    private func kittyDeletes() -> [[UInt8]] {
        guard painter.graphics == .kitty else { return [] }
        return heldIDs.sorted().map(KittyGraphics.delete)
    }

    /// Forgets every picture sent and shown: the next `draw` sends and draws them all.
    private func forgetAll() {
        held = [:]
        sentForPlaceholders = [:]
        onScreen = [:]
        screenSize = nil
    }

    private func newPlacementID() -> UInt32 {
        defer { nextPlacementID = nextPlacementID == UInt32.max ? 1 : nextPlacementID + 1 }
        return nextPlacementID
    }

    private func deletePlacement(_ shown: Shown) -> [UInt8] {
        wrapped(KittyGraphics.deletePlacement(id: shown.id, placement: shown.placementID))
    }

    /// The bytes of pixels of a box of cells.
    private func pixelBytes(_ columns: Int, _ rows: Int) -> Int {
        columns * painter.cell.width * rows * painter.cell.height * 4
    }

    /// The cursor saved (DECSC) and put at `placement`'s top-left: ncurses moves the cursor
    /// relative to where it believes it is, and xterm leaves it inside a sixel; DECRC after.
    private func cursor(at placement: PicturePlacement) -> [UInt8] {
        Array("\u{1B}7\u{1B}[\(origin.y + placement.rect.y + 1);\(origin.x + placement.rect.x + 1)H".utf8)
    }

    /// The escapes that draw `placement` (sixel, iTerm2) with the cursor put at its
    /// top-left and then back.
    private func drawnOverCells(_ placement: PicturePlacement) -> [UInt8]? {
        guard let payload = painter.encoded(for: placement) else { return nil }
        let back = Array("\u{1B}8".utf8)
        switch painter.graphics {
        case .sixel: return wrapped(cursor(at: placement) + payload + back)
        case .iterm2: return wrapped(cursor(at: placement) + ITermImage.show(png: payload) + back)
        case .kitty, .halfBlocks: return nil
        }
    }

    private func wrapped(_ bytes: [UInt8]) -> [UInt8] {
        throughTmux ? TmuxPassthrough.wrap(bytes) : bytes
    }
}
