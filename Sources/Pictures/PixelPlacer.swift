import Imaging
import Terminal

/// The one effect that puts pictures in pixels on screen: each frame, after ncurses has
/// drawn its cells, the pictures the canvas places (`Canvas.pictures`, given by
/// `PixelPainter`) that are not on screen yet are written straight to the terminal, the
/// cursor put where each goes and back where ncurses left it; those the frame no longer
/// has are deleted (kitty, by id) or drawn over (sixel, iTerm2: their rows rewritten).
/// Pictures the painter drew as kitty's placeholder cells are text ncurses draws: each is
/// only sent once, with its virtual placement, when a frame first has it, and deleted by id
/// when a frame no longer does.
public final class PixelPlacer {
    public let painter: PixelPainter
    /// Inside tmux: every escape wrapped in its passthrough.
    public let throughTmux: Bool
    /// Inside tmux: the pane's top-left cell in the terminal around it (passthrough bytes
    /// reach that terminal, whose cursor knows nothing of panes).
    public let origin: (x: Int, y: Int)
    /// The pictures on screen, each with its kitty id.
    private var onScreen: [PicturePlacement: UInt32] = [:]
    private var screenSize: (width: Int, height: Int)?
    private var nextID: UInt32
    /// The pictures drawn as placeholder cells that kitty has, by number, with their ids.
    private var sentForPlaceholders: [Int: UInt32] = [:]

    /// kitty's ids are the terminal's, shared with every program in the window: start far
    /// from 1, where others start.
    public static let firstID: UInt32 = 0x4E53_0001

    public init(painter: PixelPainter, throughTmux: Bool = false, origin: (x: Int, y: Int) = (0, 0)) {
        self.painter = painter
        self.throughTmux = throughTmux
        self.origin = origin
        nextID = Self.firstID
    }

    /// The pictures on screen now.
    public var placements: Set<PicturePlacement> { Set(onScreen.keys) }

    /// Draws `canvas` on `backend`, then its pictures.
    public func draw(_ canvas: Canvas, on backend: TerminalBackend) {
        let held = Set(canvas.pictures.lazy.map(\.picture).filter(painter.isHeldByPlaceholders))
        let wanted = canvas.pictures.filter { !held.contains($0.picture) }
        let sameScreen = screenSize.map { $0 == (canvas.width, canvas.height) } ?? false
        let gone = onScreen.keys.filter { !sameScreen || !wanted.contains($0) }
        var redraw = wanted.filter { !sameScreen || onScreen[$0] == nil }
        if painter.graphics != .kitty {
            // Their pixels are in the cells: the rows they covered are written again, and
            // the pictures still wanted on those rows drawn again after.
            for placement in gone { backend.redrawRows(placement.rect.y..<placement.rect.maxY) }
            for placement in wanted where !redraw.contains(placement)
            && gone.contains(where: { $0.rect.y < placement.rect.maxY && placement.rect.y < $0.rect.maxY }) {
                redraw.append(placement)
            }
        }
        backend.draw(canvas)
        var output: [UInt8] = []
        // kitty: a picture panned or moved is sent again under the id it had, which replaces
        // it and its placement in one go (no delete, no frame without it).
        var reusable: [Int: UInt32] = [:]
        for placement in gone {
            if painter.graphics == .kitty, let id = onScreen[placement] {
                if sameScreen, reusable[placement.picture] == nil,
                   redraw.contains(where: { $0.picture == placement.picture && onScreen[$0] == nil }) {
                    reusable[placement.picture] = id
                } else {
                    output += wrapped(KittyGraphics.delete(id: id))
                }
            }
            onScreen[placement] = nil
        }
        for placement in redraw {
            if painter.graphics == .kitty, let id = onScreen[placement] { output += wrapped(KittyGraphics.delete(id: id)) }
            let reused = reusable.removeValue(forKey: placement.picture)
            let id = reused ?? nextID
            guard let bytes = bytes(for: placement, id: id) else {
                if let reused { output += wrapped(KittyGraphics.delete(id: reused)) }
                continue
            }
            if reused == nil { nextID = nextID == UInt32.max ? Self.firstID : nextID + 1 }
            output += bytes
            onScreen[placement] = id
        }
        for id in reusable.values { output += wrapped(KittyGraphics.delete(id: id)) }
        output += placeholderPictures(held)
        screenSize = (canvas.width, canvas.height)
        backend.writeDirect(output)
    }

    /// The escapes for the pictures `held` in placeholder cells: those kitty has and the
    /// frame no longer names deleted by id, those it names for the first time sent under
    /// their id with one virtual placement of their whole size. No cursor moves: where
    /// they show is where ncurses drew their cells.
    private func placeholderPictures(_ held: Set<Int>) -> [UInt8] {
        var output: [UInt8] = []
        for (number, id) in sentForPlaceholders where !held.contains(number) {
            output += wrapped(KittyGraphics.delete(id: id))
            sentForPlaceholders[number] = nil
        }
        for number in held.sorted() where sentForPlaceholders[number] == nil {
            guard let picture = painter.placeholderPicture(numbered: number) else { continue }
            for chunk in KittyGraphics.transmit(png: picture.bytes, id: picture.id) { output += wrapped(chunk) }
            output += wrapped(KittyPlaceholders.place(id: picture.id, columns: picture.size.columns, rows: picture.size.rows))
            sentForPlaceholders[number] = picture.id
        }
        return output
    }

    /// Takes every picture off the screen (before Ctrl-Z hands the terminal to the shell, and
    /// on quitting): kitty's are deleted; sixel's go with the screen ncurses leaves. The next
    /// `draw` draws them all again.
    public func clear(on backend: TerminalBackend) {
        var output: [UInt8] = []
        if painter.graphics == .kitty {
            for id in onScreen.values { output += wrapped(KittyGraphics.delete(id: id)) }
            for id in sentForPlaceholders.values { output += wrapped(KittyGraphics.delete(id: id)) }
        }
        sentForPlaceholders = [:]
        for placement in onScreen.keys { backend.redrawRows(placement.rect.y..<placement.rect.maxY) }
        onScreen = [:]
        screenSize = nil
        backend.writeDirect(output)
    }

    /// The escapes that draw `placement` with the cursor put at its top-left and then back.
    func bytes(for placement: PicturePlacement, id: UInt32) -> [UInt8]? {
        guard let payload = painter.encoded(for: placement) else { return nil }
        // DECSC/DECRC: ncurses moves the cursor relative to where it believes it is, and
        // xterm leaves it inside a sixel.
        let cursor = Array("\u{1B}7\u{1B}[\(origin.y + placement.rect.y + 1);\(origin.x + placement.rect.x + 1)H".utf8)
        let back = Array("\u{1B}8".utf8)
        switch painter.graphics {
        case .kitty:
            // Sent first, then shown by one short escape with the cursor moves: tmux draws
            // its own changes between passthroughs, and moves the cursor as it does.
            var output: [UInt8] = []
            for chunk in KittyGraphics.transmit(png: payload, id: id) { output += wrapped(chunk) }
            return output + wrapped(cursor + KittyGraphics.place(id: id) + back)
        case .sixel: return wrapped(cursor + payload + back)
        case .iterm2: return wrapped(cursor + ITermImage.show(png: payload) + back)
        case .halfBlocks: return nil
        }
    }

    private func wrapped(_ bytes: [UInt8]) -> [UInt8] {
        throughTmux ? TmuxPassthrough.wrap(bytes) : bytes
    }
}
