import ArgumentParser
import Terminal

extension Render {
    /// `render`'s arguments in their plain forms (`FILE… [--page N] [--size COLSxROWS]
    /// [--colors C] [--symbols S] [--images I] [--output PNG] [--pixels WxH]`, each option at
    /// most once, written `--name value`), read without ArgumentParser: it reflects on the
    /// command, and on its two completion pseudo-commands, before it reads a word, which was
    /// 29 % of `render FILE.pdf`'s own CPU (benchmarks/HISTORY.md, "#31, startcost"). Each value
    /// goes through the `init(argument:)` ArgumentParser would call, and `validate()` runs as
    /// it would. nil for any other form (help, `--name=value`, a value that starts with `-`, an
    /// unknown option, a mistake): ArgumentParser reads those, in its own words.
    static func quick(_ arguments: [String]) -> Render? {
        var images: [String] = []
        var values: [String: String] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if !word.hasPrefix("-") {
                images.append(word)
                index += 1
                continue
            }
            guard quickOptions.contains(word), values[word] == nil, index + 1 < arguments.endIndex,
                  !arguments[index + 1].hasPrefix("-") else { return nil }
            values[word] = arguments[index + 1]
            index += 2
        }
        // Each property is only set: reading one ArgumentParser has not filled stops the program.
        guard let page = converted(values["--page"], to: Int.self),
              let size = converted(values["--size"], to: Size.self),
              let imagesChoice = converted(values["--images"], to: ImagesChoice.self),
              let pixels = converted(values["--pixels"], to: Pixels.self),
              let colors = converted(values["--colors"], to: ColorChoice.self),
              let symbols = converted(values["--symbols"], to: DisplayOptions.SymbolChoice.self) else { return nil }
        var display = DisplayOptions()
        display.colors = colors ?? .auto
        display.symbols = symbols
        var render = Render()
        render.images = images
        render.page = page
        render.size = size
        render.imagesChoice = imagesChoice
        render.output = values["--output"]
        render.pixels = pixels
        render.display = display
        guard (try? render.validate()) != nil else { return nil }
        return render
    }

    private static let quickOptions: Set<String> = ["--page", "--size", "--images", "--output", "--pixels", "--colors", "--symbols"]

    /// `value` as ArgumentParser converts it: `.some(nil)` when not given, nil when it does not convert.
    private static func converted<Value: ExpressibleByArgument>(_ value: String?, to type: Value.Type) -> Value?? {
        guard let value else { return .some(nil) }
        return Value(argument: value).map { .some($0) }
    }
}
