import CMediaEngineCGStreamer
import CMediaEngineElements
import MediaEngine
import Testing

/// The rules by which the scaler may write into a decoder's read-only picture
/// (`me_picture_buffer_claim`, releasedpicture.c): only when the decoder says it has let the
/// picture go, and nothing but this one buffer holds its memories. Made by hand here, with a
/// decoder's answer the test sets, so each rule is checked every run (in playback, which
/// pictures are let go in time depends on libav's threads: see OverlayInPlaceTests).
@Suite("Pictures a decoder let go: when they may be written")
struct ReleasedPictureTests {
    /// What the decoder answers, read by the check through its owner pointer.
    final class Decoder {
        var released = false
    }

    static let check: me_picture_released_callback = { owner in
        Unmanaged<Decoder>.fromOpaque(owner!).takeUnretainedValue().released ? 1 : 0
    }

    /// A buffer of `planes` read-only memories, each asking `decoders[plane]` (or none for nil).
    static func picture(_ decoders: [Decoder?]) -> UnsafeMutablePointer<GstBuffer> {
        let buffer = gst_buffer_new()!
        for decoder in decoders {
            let memory = gst_allocator_alloc(nil, 64, nil)!
            memory.pointee.mini_object.flags |= GST_MEMORY_FLAG_READONLY.rawValue
            if let decoder {
                me_picture_memory_set_release_check(memory, check, Unmanaged.passUnretained(decoder).toOpaque())
            }
            gst_buffer_append_memory(buffer, memory)
        }
        return buffer
    }

    static func readOnly(_ buffer: UnsafeMutablePointer<GstBuffer>) -> [Bool] {
        (0..<gst_buffer_n_memory(buffer)).map { index in
            let memory = gst_buffer_peek_memory(buffer, index)!
            return memory.pointee.mini_object.flags & GST_MEMORY_FLAG_READONLY.rawValue != 0
        }
    }

    static func unref(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        gst_mini_object_unref(UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GstMiniObject.self))
    }

    @Test("a picture the decoder still holds stays read-only; once let go, its planes become writable")
    func decoderDecides() throws {
        try GStreamer.initialize()
        let decoder = Decoder()
        let buffer = Self.picture([decoder, decoder, decoder])
        defer { Self.unref(buffer) }
        #expect(me_picture_buffer_claim(buffer) == 0)
        #expect(Self.readOnly(buffer) == [true, true, true])
        decoder.released = true
        #expect(me_picture_buffer_claim(buffer) != 0)
        #expect(Self.readOnly(buffer) == [false, false, false])
    }

    @Test(
        "not while another holder could see the change: a second reference to the buffer, or a plane in another buffer")
    func sharedIsNotClaimed() throws {
        try GStreamer.initialize()
        let decoder = Decoder()
        decoder.released = true
        let buffer = Self.picture([decoder, decoder])
        defer { Self.unref(buffer) }
        // The buffer held twice (a tee's other branch, say).
        let second = gst_buffer_ref(buffer)!
        #expect(me_picture_buffer_claim(buffer) == 0)
        Self.unref(second)
        // One plane's memory in another buffer too.
        let other = gst_buffer_new()!
        gst_buffer_append_memory(other, gst_memory_ref(gst_buffer_peek_memory(buffer, 1)))
        #expect(me_picture_buffer_claim(buffer) == 0)
        #expect(Self.readOnly(buffer) == [true, true])
        Self.unref(other)
        #expect(me_picture_buffer_claim(buffer) != 0, "held by this buffer alone again")
    }

    @Test("not for read-only memory no decoder answers for, nor for planes of two pictures")
    func unknownOrMixedIsNotClaimed() throws {
        try GStreamer.initialize()
        let first = Decoder()
        let second = Decoder()
        first.released = true
        second.released = true
        let unknown = Self.picture([first, nil])
        defer { Self.unref(unknown) }
        #expect(me_picture_buffer_claim(unknown) == 0)
        #expect(Self.readOnly(unknown) == [true, true])
        let mixed = Self.picture([first, second])
        defer { Self.unref(mixed) }
        #expect(me_picture_buffer_claim(mixed) == 0)
        #expect(Self.readOnly(mixed) == [true, true])
    }
}
