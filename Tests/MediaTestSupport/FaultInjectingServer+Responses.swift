import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension FaultInjectingServer.Core {
    /// Answers the requests of one connection until it ends; true when it must end with a reset.
    func serve(_ connection: Int32) -> Bool {
        var reader = HTTPRequestReader(socket: connection)
        while let head = reader.next() {
            switch respond(to: head, on: connection, reader: &reader) {
            case .keepOpen: continue
            case .close: return false
            case .reset: return true
            }
        }
        return false
    }

    private enum Ending {
        case keepOpen
        case close
        case reset
    }

    private func respond(to head: HTTPRequestHead, on connection: Int32, reader: inout HTTPRequestReader) -> Ending {
        let open: Ending = head.keepsAlive ? .keepOpen : .close
        if let digest, !isAuthorized(head, digest) {
            record(head, status: 401, faulted: false)
            let challenge =
                "Digest realm=\"\(digest.realm)\", qop=\"auth\", algorithm=MD5, nonce=\"\(issueNonce())\", "
                + "opaque=\"\(opaque)\""
            let sent = send(
                connection, head: "401 Unauthorized", keepAlive: head.keepsAlive,
                headers: [("WWW-Authenticate", challenge), ("Content-Type", "text/plain"), ("Content-Length", "13")],
                body: Array("Unauthorized\n".utf8)[...])
            return sent ? open : .close
        }
        // Garbage is as long as the body, so the range is the same either way.
        let range = Self.range(head.value(of: "range"), length: content.body.count)
        let fault = takeFault(for: head, unsatisfiable: range == .unsatisfiable)
        switch fault {
        case .neverAnswer:
            record(head, status: nil, faulted: true)
            reader.drain()
            return .close
        case .icy(let metaint, let titles):
            record(head, status: 200, faulted: true)
            _ = sendICY(connection, metaint: metaint, titles: titles)
            return .close
        case .status(let code):
            record(head, status: code, faulted: true)
            // 204 and 304 have no body, and no Content-Length (RFC 9110, 8.6).
            let bodiless = code == 204 || code == 304
            let text = bodiless ? [] : Array("HTTP \(code)\n".utf8)
            let sent = send(
                connection, head: "\(code) \(Self.reason(code))", keepAlive: head.keepsAlive,
                headers: bodiless ? [] : [("Content-Type", "text/plain"), ("Content-Length", "\(text.count)")],
                body: text[...])
            return sent ? open : .close
        default:
            break
        }
        let body = fault == .garbage ? content.garbage : content.body
        var headers = [("Content-Type", content.contentType), ("Accept-Ranges", "bytes")]
        let status: String
        let slice: ArraySlice<UInt8>
        switch range {
        case .whole:
            status = "200 OK"
            slice = body[...]
        case .part(let bounds):
            status = "206 Partial Content"
            slice = body[bounds]
            headers.append(("Content-Range", "bytes \(bounds.lowerBound)-\(bounds.upperBound - 1)/\(body.count)"))
        case .unsatisfiable:
            record(head, status: 416, faulted: false)
            let sent = send(
                connection, head: "416 Range Not Satisfiable", keepAlive: head.keepsAlive,
                headers: [("Content-Range", "bytes */\(body.count)"), ("Content-Length", "0")], body: [])
            return sent ? open : .close
        }
        headers.append(("Content-Length", "\(slice.count)"))
        record(head, status: range == .whole ? 200 : 206, faulted: fault != nil)
        let sentBody: ArraySlice<UInt8>
        switch fault {
        case .resetAfter(let count), .shortBody(let count), .holdThenReset(let count), .holdThenContinue(let count):
            sentBody = slice.prefix(count)
        default: sentBody = head.method == "HEAD" ? [] : slice
        }
        if case .throttle(let rate) = fault, head.method != "HEAD" {
            guard send(connection, head: status, keepAlive: false, headers: headers, body: []) else { return .close }
            let tenth = max(rate / 10, 1)
            var rest = slice
            while !rest.isEmpty {
                // A send that fails (the client gone, the server stopping) ends the response.
                guard Self.sendAll(connection, rest.prefix(tenth)) else { return .close }
                rest = rest.dropFirst(tenth)
                if !rest.isEmpty { Thread.sleep(forTimeInterval: 0.1) }
            }
            return .close
        }
        if case .pauseBeforeEnd(let bytes, let pause) = fault, head.method != "HEAD" {
            let most = slice.dropLast(bytes)
            guard send(connection, head: status, keepAlive: false, headers: headers, body: most) else { return .close }
            Thread.sleep(forTimeInterval: pause / .seconds(1))
            _ = Self.sendAll(connection, slice.dropFirst(most.count))
            return .close
        }
        let keepAlive = head.keepsAlive && fault == nil
        guard send(connection, head: status, keepAlive: keepAlive, headers: headers, body: sentBody) else {
            return .close
        }
        if case .resetAfter = fault { return .reset }
        if case .holdThenReset = fault {
            waitForRelease()
            return .reset
        }
        if case .holdThenContinue = fault {
            waitForRelease()
            _ = Self.sendAll(connection, slice.dropFirst(sentBody.count))
            return .close
        }
        return keepAlive ? .keepOpen : .close
    }

    /// The reason phrase of a status the tests use.
    private static func reason(_ code: Int) -> String {
        [
            204: "No Content", 304: "Not Modified", 408: "Request Timeout", 429: "Too Many Requests",
            500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout",
        ][code] ?? "Error"
    }

    private func isAuthorized(_ head: HTTPRequestHead, _ account: FaultInjectingServer.DigestAccount) -> Bool {
        guard let value = head.value(of: "authorization"), value.lowercased().hasPrefix("digest ") else {
            return false
        }
        let parameters = HTTPDigest.parameters(String(value.dropFirst("digest ".count)))
        guard parameters["username"] == account.user, parameters["realm"] == account.realm,
            let nonce = parameters["nonce"], wasIssued(nonce), let uri = parameters["uri"], uri == head.target,
            parameters["opaque"].map({ $0 == opaque }) ?? true,
            parameters["algorithm"].map({ $0.uppercased() == "MD5" }) ?? true,
            let response = parameters["response"]
        else { return false }
        let qop = parameters["qop"]
        if let qop, qop != "auth" || parameters["nc"] == nil || parameters["cnonce"] == nil { return false }
        let expected = HTTPDigest.response(
            user: account.user, password: account.password, realm: account.realm, method: head.method, uri: uri,
            nonce: nonce, qop: qop, nc: parameters["nc"] ?? "", cnonce: parameters["cnonce"] ?? "")
        return response.lowercased() == expected
    }

    private enum RequestedRange: Equatable {
        case whole
        case part(Range<Int>)
        case unsatisfiable
    }

    /// One `bytes=` range (`a-b`, `a-`, `-n`); anything else (several ranges, other units,
    /// nonsense) is ignored and the whole body served, as RFC 9110 allows.
    private static func range(_ header: String?, length: Int) -> RequestedRange {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let parts = header.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        let first = Int(parts[0].trimmingCharacters(in: .whitespaces))
        let last = Int(parts[1].trimmingCharacters(in: .whitespaces))
        switch (first, last) {
        case (let start?, let end):
            guard start < length else { return .unsatisfiable }
            if let end, end < start { return .whole }
            return .part(start..<min(end.map { $0 + 1 } ?? length, length))
        case (nil, let suffix?):
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .part(max(0, length - suffix)..<length)
        case (nil, nil):
            return .whole
        }
    }

    private func send(
        _ connection: Int32, head status: String, keepAlive: Bool, headers: [(String, String)],
        body: ArraySlice<UInt8>
    ) -> Bool {
        var text = "HTTP/1.1 \(status)\r\nServer: FaultInjectingServer\r\n"
        for (name, value) in headers + [("Connection", keepAlive ? "keep-alive" : "close")] {
            text += "\(name): \(value)\r\n"
        }
        return Self.sendAll(connection, Array((text + "\r\n").utf8)[...]) && Self.sendAll(connection, body)
    }

    private func sendICY(_ connection: Int32, metaint: Int, titles: [String]) -> Bool {
        let head =
            "HTTP/1.0 200 OK\r\nServer: FaultInjectingServer\r\nContent-Type: \(content.contentType)\r\n"
            + "icy-metaint: \(metaint)\r\nicy-name: swift-media-engine test radio\r\nConnection: close\r\n\r\n"
        var stream = Array(head.utf8)
        let body = content.body
        let blocks = body.count / metaint
        var lastTitle: Int?
        for start in stride(from: 0, to: body.count, by: metaint) {
            let end = min(start + metaint, body.count)
            stream += body[start..<end]
            guard end - start == metaint else { break }
            let block = start / metaint
            let title = titles.isEmpty ? nil : min(block * titles.count / max(blocks, 1), titles.count - 1)
            guard let title, title != lastTitle else {
                stream.append(0)
                continue
            }
            lastTitle = title
            var text = Array("StreamTitle='\(titles[title])';".utf8)
            let units = (text.count + 15) / 16
            text += [UInt8](repeating: 0, count: units * 16 - text.count)
            stream.append(UInt8(units))
            stream += text
        }
        return Self.sendAll(connection, stream[...])
    }

    /// Sends every byte, or stops at the first error (the peer gone, the socket shut down).
    private static func sendAll(_ connection: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let sent = rest.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            rest = rest.dropFirst(sent)
        }
        return true
    }
}
