import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for injecting failures a real file server never
/// produces on demand: a body shorter than its `Content-Length`, and a connection that
/// stalls mid-body until the server goes away. One thread per connection; every wait is
/// bounded.
final class FaultyHTTPServer: @unchecked Sendable {
    enum Reply {
        case ok(Data)
        case notFound
        /// Announces the whole body but sends only `sent` bytes, then closes.
        case truncated(Data, sent: Int)
        /// Sends `sent` bytes of the body, then holds the connection until ``stop()``.
        case stall(Data, sent: Int)
        /// Sends `sent` bytes of the body without a `Content-Length`, then closes: to the
        /// client the body ended normally.
        case unannounced(Data, sent: Int)
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var routes: [String: Reply] = [:]
    private var connections: Set<Int32> = []
    private var stopped = false
    private let stopSignal = DispatchSemaphore(value: 0)
    private var requested: [String] = []

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    func set(_ path: String, _ reply: Reply) {
        lock.lock(); routes[path] = reply; lock.unlock()
    }

    /// The paths requested so far, in order.
    var requests: [String] {
        lock.lock(); defer { lock.unlock() }
        return requested
    }

    /// Closes the listener and every open connection.
    func stop() {
        lock.lock()
        guard !stopped else { lock.unlock(); return }
        stopped = true
        let open = connections
        connections.removeAll()
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        for _ in 0 ..< 64 { stopSignal.signal() }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            lock.lock()
            let isStopped = stopped
            if fd >= 0, !isStopped { connections.insert(fd) }
            lock.unlock()
            if isStopped {
                if fd >= 0 { close(fd) }
                return
            }
            guard fd >= 0 else { continue }
            Thread.detachNewThread { [self] in serve(fd) }
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.lock(); connections.remove(fd); lock.unlock()
            close(fd)
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.count < 65536 {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return }
            request.append(contentsOf: buffer[0 ..< n])
            if String(decoding: request, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        lock.lock()
        requested.append(path)
        let reply = routes[path] ?? .notFound
        lock.unlock()
        switch reply {
        case .ok(let body):
            send(fd, header(200, length: body.count) + body)
        case .notFound:
            let body = Data("not found\n".utf8)
            send(fd, header(404, length: body.count) + body)
        case .truncated(let body, let sent):
            send(fd, header(200, length: body.count) + body.prefix(sent))
        case .stall(let body, let sent):
            send(fd, header(200, length: body.count) + body.prefix(sent))
            _ = stopSignal.wait(timeout: .now() + 60)
        case .unannounced(let body, let sent):
            send(fd, header(200, length: nil) + body.prefix(sent))
        }
    }

    private func header(_ status: Int, length: Int?) -> Data {
        let reason = status == 200 ? "OK" : "Not Found"
        let contentLength = length.map { "Content-Length: \($0)\r\n" } ?? ""
        return Data(
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/octet-stream\r\n\(contentLength)Connection: close\r\n\r\n"
                .utf8)
    }

    private func send(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                #if canImport(Glibc)
                let n = Glibc.send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                let n = Darwin.send(fd, base + offset, raw.count - offset, 0)
                #endif
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}

/// `python3 -m http.server` serving `directory` on a free port of 127.0.0.1: a real,
/// independent static file server, as users would run one.
final class PythonHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let process = Process()

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    init(directory: URL) throws {
        port = try Self.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-m", "http.server", "--bind", "127.0.0.1", "\(port)", "--directory", directory.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready when it accepts a connection; at most 15 s.
        for _ in 0 ..< 300 {
            if Self.canConnect(port) { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        stop()
        throw POSIXError(.ECONNREFUSED)
    }

    /// Kills the server. SIGKILL, because the child inherits the test process's signal
    /// mask, in which libdispatch's threads block SIGTERM.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRNOTAVAIL) }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func canConnect(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
