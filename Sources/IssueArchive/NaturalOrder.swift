import Foundation

/// Orders names the way people number pages: "page 2" before "page 10", case ignored,
/// "p01" equal in rank to "p1" (ties broken by the plain comparison so the order is total).
public enum NaturalOrder {
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let order = compare(a, b)
        return order == .orderedSame ? a < b : order == .orderedAscending
    }

    public static func sorted(_ names: [String]) -> [String] {
        names.sorted(by: areInIncreasingOrder)
    }

    static func compare(_ a: String, _ b: String) -> ComparisonResult {
        var left = chunks(a)[...], right = chunks(b)[...]
        while let l = left.first, let r = right.first {
            let result: ComparisonResult
            switch (l, r) {
            case let (.number(x), .number(y)):
                result = compareDigits(x, y)
            case let (.text(x), .text(y)):
                result = x.compare(y, options: [.caseInsensitive])
            case (.number, .text):
                result = .orderedAscending
            case (.text, .number):
                result = .orderedDescending
            }
            if result != .orderedSame { return result }
            left = left.dropFirst()
            right = right.dropFirst()
        }
        if left.isEmpty && right.isEmpty { return .orderedSame }
        return left.isEmpty ? .orderedAscending : .orderedDescending
    }

    private enum Chunk { case text(String), number(Substring) }

    private static func chunks(_ s: String) -> [Chunk] {
        var result: [Chunk] = []
        var current = ""
        var inNumber = false
        for ch in s {
            let isDigit = ch.isASCII && ch.isNumber
            if !current.isEmpty && isDigit != inNumber {
                result.append(inNumber ? .number(Substring(current)) : .text(current))
                current = ""
            }
            inNumber = isDigit
            current.append(ch)
        }
        if !current.isEmpty { result.append(inNumber ? .number(Substring(current)) : .text(current)) }
        return result
    }

    /// Compares digit strings of any length by value, without overflowing.
    private static func compareDigits(_ x: Substring, _ y: Substring) -> ComparisonResult {
        let a = x.drop { $0 == "0" }, b = y.drop { $0 == "0" }
        if a.count != b.count { return a.count < b.count ? .orderedAscending : .orderedDescending }
        if a == b { return .orderedSame }
        return a < b ? .orderedAscending : .orderedDescending
    }
}
