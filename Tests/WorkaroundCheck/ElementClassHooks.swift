// Hooks on GStreamer's element classes: how a scenario reaches the elements a player builds
// inside its pipeline, which it has no handle on: to count them, to see what they post and are
// sent, and to hold one of their threads where a race's window opens. Each wraps one virtual
// function of one class, for the rest of the process (the child runs one scenario and ends).
import CMediaEngineCGStreamer
import Foundation
import MediaEngine
import MediaTestSupport

/// The class of the elements `factory` makes (its plugin loaded), with its type; the class stays
/// referenced for the rest of the process.
func elementClass(of factory: String) throws -> (GType, UnsafeMutablePointer<GstElementClass>) {
    guard let found = gst_element_factory_find(factory) else { throw TestMediaError(message: "no \(factory)") }
    defer { gst_object_unref(UnsafeMutableRawPointer(found)) }
    guard let loaded = gst_plugin_feature_load(found) else {
        throw TestMediaError(message: "\(factory)'s plugin does not load")
    }
    defer { gst_object_unref(UnsafeMutableRawPointer(loaded)) }
    let type = gst_element_factory_get_element_type(loaded)
    return (type, g_type_class_ref(type).assumingMemoryBound(to: GstElementClass.self))
}

/// The type of `element`'s class (G_TYPE_FROM_INSTANCE).
private func instanceType(of element: UnsafeMutablePointer<GstElement>) -> GType {
    element.pointee.object.object.g_type_instance.g_class.pointee.g_type
}

/// Runs `handler` on the thread that posts each message of `factory`'s elements, before the
/// message goes on (their class's `post_message` wrapped): it may hold the thread there, and
/// returns false to drop the message; then `after`, once the message has gone on. Once per
/// factory, before its first element is made.
enum PostedMessages {
    typealias Handler = @Sendable (UnsafeMutablePointer<GstElement>, UnsafeMutablePointer<GstMessage>) -> Bool
    typealias After = @Sendable (UnsafeMutablePointer<GstElement>, GstMessageType) -> Void

    static func intercept(on factory: String, _ handler: @escaping Handler, after: @escaping After = { _, _ in })
        throws
    {
        let (type, elementClass) = try elementClass(of: factory)
        Wrapped.table[type] = Wrapped.Entry(
            handler: handler, after: after, postMessage: elementClass.pointee.post_message)
        elementClass.pointee.post_message = { element, message in
            guard let element, let message, let entry = Wrapped.table[instanceType(of: element)] else { return 0 }
            guard entry.handler(element, message) else {
                gst_mini_object_unref(UnsafeMutableRawPointer(message).assumingMemoryBound(to: GstMiniObject.self))
                return 0
            }
            let kind = message.pointee.type
            let posted = entry.postMessage?(element, message) ?? 0
            entry.after(element, kind)
            return posted
        }
    }

    /// The wrapped classes' own functions and handlers, by type; written before the first
    /// element is made, read on the threads that post.
    private enum Wrapped {
        struct Entry {
            let handler: Handler
            let after: After
            let postMessage:
                (@convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstMessage>?) -> gboolean)?
        }

        nonisolated(unsafe) static var table: [GType: Entry] = [:]
    }
}

/// Runs `handler` on the thread that sends each event to one of `factory`'s elements with
/// `gst_element_send_event` (their class's `send_event` wrapped: called with the element's state
/// lock held), before the element takes it. Once per factory, before its first element is made.
enum SentEvents {
    typealias Handler = @Sendable (UnsafeMutablePointer<GstElement>, UnsafeMutablePointer<GstEvent>) -> Void

    static func intercept(on factory: String, _ handler: @escaping Handler) throws {
        let (type, elementClass) = try elementClass(of: factory)
        Wrapped.table[type] = Wrapped.Entry(handler: handler, sendEvent: elementClass.pointee.send_event)
        elementClass.pointee.send_event = { element, event in
            guard let element, let event, let entry = Wrapped.table[instanceType(of: element)] else { return 0 }
            entry.handler(element, event)
            return entry.sendEvent?(element, event) ?? 0
        }
    }

    /// The wrapped classes' own functions and handlers, by type; written before the first
    /// element is made, read on the threads that send.
    private enum Wrapped {
        struct Entry {
            let handler: Handler
            let sendEvent:
                (@convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstEvent>?) -> gboolean)?
        }

        nonisolated(unsafe) static var table: [GType: Entry] = [:]
    }
}

/// The pipeline `element` is in (its topmost parent).
func topLevel(of element: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstElement> {
    var top = element
    while let parent = top.pointee.object.parent {
        top = UnsafeMutableRawPointer(parent).assumingMemoryBound(to: GstElement.self)
    }
    return top
}

/// The elements of one factory alive in this process, as seen from their class: its
/// `change_state` and `finalize` are wrapped, and an element counts from its first state change
/// (every element of a pipeline that prerolls has one) to its finalization. For what the player
/// builds inside its pipeline, which a scenario cannot reach otherwise. (GLib's own instance
/// count needs a GLib built with debugging; `constructed` is called only for classes that had
/// their own when they were initialized.)
///
/// Make every watch before the first pipeline: the wrappers read the table of watches on
/// streaming threads without a lock.
final class LiveElements: Sendable {
    private let elements = Locked<[UInt]>([])

    /// Wraps the class of `factory`'s elements (its plugin loaded).
    init(factory: String) throws {
        let (type, elementClass) = try elementClass(of: factory)
        Wrapped.table[type] = Wrapped.Entry(
            watch: self, changeState: elementClass.pointee.change_state,
            finalize: elementClass.pointee.parent_class.parent_class.finalize)
        elementClass.pointee.change_state = { element, transition in
            guard let element, let entry = Wrapped.table[instanceType(of: element)] else {
                return GST_STATE_CHANGE_FAILURE
            }
            entry.watch.elements.withLock { elements in
                let address = UInt(bitPattern: element)
                if !elements.contains(address) { elements.append(address) }
            }
            return entry.changeState?(element, transition) ?? GST_STATE_CHANGE_SUCCESS
        }
        elementClass.pointee.parent_class.parent_class.finalize = { object in
            guard let object, let entry = Wrapped.table[object.pointee.g_type_instance.g_class.pointee.g_type] else {
                return
            }
            entry.watch.elements.withLock { $0.removeAll { $0 == UInt(bitPattern: object) } }
            entry.finalize?(object)
        }
    }

    /// How many are alive.
    var count: Int { elements.withLock { $0.count } }

    /// The first still alive, with a reference of its own; nil when none is.
    func first() -> UnsafeMutablePointer<GstElement>? {
        elements.withLock { elements in
            guard let address = elements.first, let element = UnsafeMutablePointer<GstElement>(bitPattern: address)
            else { return nil }
            gst_object_ref(UnsafeMutableRawPointer(element))
            return element
        }
    }

    /// The wrapped classes' own functions and their watch, by type.
    private enum Wrapped {
        struct Entry {
            let watch: LiveElements
            let changeState:
                (@convention(c) (UnsafeMutablePointer<GstElement>?, GstStateChange) -> GstStateChangeReturn)?
            let finalize: (@convention(c) (UnsafeMutablePointer<GObject>?) -> Void)?
        }

        nonisolated(unsafe) static var table: [GType: Entry] = [:]
    }
}
