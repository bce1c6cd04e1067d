import Testing
@preconcurrency import CNcursesw
@testable import Terminal

@Suite struct InputDecodingTests {
    @Test(arguments: [
        (UInt32(13), Key.enter), (10, .enter), (127, .backspace), (8, .backspace), (9, .tab), (27, .escape),
        (1, .control("a")), (3, .control("c")), (26, .control("z")),
        (UInt32(("q" as Unicode.Scalar).value), .character("q")), (0x65E5, .character("日")), (0x1F4F0, .character("📰")),
    ])
    func characters(value: UInt32, key: Key) {
        #expect(InputDecoding.key(character: value) == key)
    }

    @Test func meaninglessControlsAreDropped() {
        for value: UInt32 in [0, 28, 31, 0x80, 0x9B, 0x9F, 0xD800] {
            #expect(InputDecoding.key(character: value) == nil, "\(value)")
        }
    }

    @Test func keyCodes() {
        let table: [(Int32, Key)] = [
            (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
            (KEY_HOME, .home), (KEY_END, .end), (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown),
            (KEY_ENTER, .enter), (KEY_BACKSPACE, .backspace), (KEY_DC, .delete), (KEY_BTAB, .backTab),
            (nsc_key_f(1), .function(1)), (nsc_key_f(12), .function(12)),
        ]
        for (code, key) in table { #expect(InputDecoding.key(code: code) == key, "\(code)") }
        #expect(InputDecoding.key(code: KEY_MOUSE) == nil)
        #expect(InputDecoding.key(code: nsc_key_f(0)) == nil)
    }

    @Test func onlyPressesBecomeMouseEvents() {
        #expect(InputDecoding.mouseButton(state: nsc_button1_pressed()) == .left)
        #expect(InputDecoding.mouseButton(state: nsc_button3_pressed()) == .right)
        #expect(InputDecoding.mouseButton(state: nsc_button4_pressed()) == .wheelUp)
        #expect(InputDecoding.mouseButton(state: nsc_button5_pressed()) == .wheelDown)
        #expect(InputDecoding.mouseButton(state: nsc_button1_clicked()) == .left)
        #expect(InputDecoding.mouseButton(state: nsc_button1_released()) == nil)
        #expect(InputDecoding.mouseButton(state: nsc_report_mouse_position()) == nil)
        #expect(InputDecoding.mouseMask & nsc_report_mouse_position() == 0)
        #expect(InputDecoding.mouseMask & nsc_button1_released() == 0)
    }

    @Test func sgrMouseReports() {
        #expect(InputDecoding.sgrMouse(parameters: "0;3;2", release: false) == .mouse(.left, x: 2, y: 1))
        #expect(InputDecoding.sgrMouse(parameters: "1;300;100", release: false) == .mouse(.middle, x: 299, y: 99))
        #expect(InputDecoding.sgrMouse(parameters: "2;1;1", release: false) == .mouse(.right, x: 0, y: 0))
        #expect(InputDecoding.sgrMouse(parameters: "64;5;6", release: false) == .mouse(.wheelUp, x: 4, y: 5))
        #expect(InputDecoding.sgrMouse(parameters: "65;5;6", release: false) == .mouse(.wheelDown, x: 4, y: 5))
        #expect(InputDecoding.sgrMouse(parameters: "16;5;6", release: false) == .mouse(.left, x: 4, y: 5))  // with Ctrl
        #expect(InputDecoding.sgrMouse(parameters: "0;3;2", release: true) == nil)
        #expect(InputDecoding.sgrMouse(parameters: "32;3;2", release: false) == .mouse(.leftDrag, x: 2, y: 1))  // motion, left held
        #expect(InputDecoding.sgrMouse(parameters: "33;3;2", release: false) == nil)   // motion with the middle button
        #expect(InputDecoding.sgrMouse(parameters: "35;3;2", release: false) == nil)   // motion with no button
        #expect(InputDecoding.sgrMouse(parameters: "32;3;2", release: true) == nil)
        #expect(InputDecoding.sgrMouseOn.contains("?1002h") && InputDecoding.sgrMouseOff.contains("?1002l"), "drags are asked for")
        #expect(InputDecoding.sgrMouse(parameters: "66;3;2", release: false) == nil)   // horizontal wheel
        #expect(InputDecoding.sgrMouse(parameters: "0;0;2", release: false) == nil)
        #expect(InputDecoding.sgrMouse(parameters: "0;3", release: false) == nil)
        #expect(InputDecoding.sgrMouse(parameters: ";;", release: false) == nil)
    }
}
