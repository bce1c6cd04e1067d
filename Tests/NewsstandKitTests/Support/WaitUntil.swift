import Foundation

/// Whether `condition` holds within `timeout` seconds. What these tests wait for is done by
/// another thread or process that tells nobody (a test server writing its log, a watcher's
/// reconnect, the agent writing the library), so it is looked at again every 20 ms until it
/// holds, and no later: the one such loop of this module, never a sleep before an assert.
@discardableResult
func waitUntil(timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return try condition()
}
