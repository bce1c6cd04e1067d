extension PDFPageText {
    /// What a neighbouring page lends the reflow of a page for its running headers and
    /// footers: its characters in the top and bottom bands (`RunningLines.band`) and its
    /// line ends, without figures. The worker sends a page's neighbours so, in a tenth of
    /// the bytes: `RunningLines` finds the same lines in these as in the whole text. (The
    /// reflow's body size and hyphen evidence then count the neighbours' bands only.)
    /// The bands are those of the page upright.
    package var runningBands: PDFPageText {
        let page = upright
        let height = max(page.size.height, 1)
        let kept = page.characters.filter { RunningLines.inBand(($0.rect.y0 + $0.rect.y1) / 2, height: height) || $0.scalar == "\n" }
        return PDFPageText(characters: kept, size: page.size)
    }
}
