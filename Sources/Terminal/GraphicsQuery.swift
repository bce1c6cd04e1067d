/// The one batch of questions asked before a screen is taken, ending with DA1, which every
/// terminal answers: the batch is over when its reply arrives.
public enum GraphicsQuery {
    /// kitty's graphics query (a 1×1 RGB image, `a=q` so it is checked and never shown),
    /// XTVERSION, the cell size, the text area's size, DA1.
    public static let batch: [UInt8] = Array(("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
        + "\u{1B}[>q" + "\u{1B}[16t" + "\u{1B}[14t" + "\u{1B}[c").utf8)

    /// Asked of a terminal that drew sixel (DA1 attribute 4), after the batch: the largest
    /// sixel picture it draws (XTSMGRAPHICS, item 2 graphics geometry, action 4 read the
    /// maximum), then DA1 again, whose reply says the answer is over. Only then: to a
    /// terminal that does not know it, a private `CSI … S` could look like a scroll.
    /// Measured in xterm 379: `CSI ? 2 ; 4 ; 0 S` → `CSI ? 2 ; 0 ; 1000 ; 1000 S` (its
    /// `maxGraphicSize`); the two-parameter forms (`CSI ? 2 ; 4 S`) get no answer at all, and
    /// action 1 (the current value) answers the window's size, not the limit.
    public static let sixelLimit: [UInt8] = Array(("\u{1B}[?2;4;0S" + "\u{1B}[c").utf8)

    /// The batch as sent: inside tmux, all of it wrapped in one passthrough, so the outer
    /// terminal answers every question in order (tmux answers DA1 and XTVERSION itself,
    /// before the outer terminal's kitty reply, when they are sent plainly).
    public static func batch(throughTmux: Bool) -> [UInt8] {
        throughTmux ? TmuxPassthrough.wrap(batch) : batch
    }
}
