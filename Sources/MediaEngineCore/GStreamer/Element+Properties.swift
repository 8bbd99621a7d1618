internal import CMediaEngineCGStreamer
internal import CMediaEngineGlue

/// Typed property access through `GValue`, checked against the property's `GParamSpec`.
extension Element {
    /// Sets a property (`g_object_set_property`) after checking that it exists, is writable
    /// and that `value` fits its declared type and range.
    /// - Throws: ``MediaError/Code/invalidProperty`` naming the element and the property.
    func set(_ property: String, _ value: PropertyValue) throws(MediaError) {
        guard let spec = me_object_find_property(pointer, property) else {
            throw MediaError(.invalidProperty, "'\(factoryName)' has no property '\(property)'", element: name)
        }
        guard spec.pointee.flags.rawValue & G_PARAM_WRITABLE.rawValue != 0 else {
            throw MediaError(.invalidProperty, "property '\(property)' of '\(factoryName)' is read-only", element: name)
        }
        var gvalue = GValue()
        g_value_init(&gvalue, spec.pointee.value_type)
        defer { g_value_unset(&gvalue) }
        if let problem = Self.store(value, into: &gvalue) {
            let typeName = String(cString: g_type_name(spec.pointee.value_type))
            throw MediaError(
                .invalidProperty,
                "property '\(property)' of '\(factoryName)' is \(typeName): \(problem)",
                element: name)
        }
        // Range checks (an int property's minimum and maximum, say): validation clamps and says so.
        if g_param_value_validate(spec, &gvalue) != 0 {
            throw MediaError(
                .invalidProperty, "\(value) is out of range for property '\(property)' of '\(factoryName)'",
                element: name)
        }
        g_object_set_property(gcast(pointer), property, &gvalue)
    }

    /// Whether the element has a property of that name.
    func hasProperty(_ property: String) -> Bool {
        me_object_find_property(pointer, property) != nil
    }

    /// Sets several properties, in key order so failures are reproducible.
    func set(_ properties: [String: PropertyValue]) throws(MediaError) {
        for key in properties.keys.sorted() {
            try set(key, properties[key]!)
        }
    }

    /// Sets a property that holds a GStreamer object (a sink on playbin, say).
    func set(_ property: String, element: Element) {
        me_object_set_object(pointer, property, element.pointer)
    }

    /// Reads an integer property (any integer type), or nil when it has none or another type.
    func int(_ property: String) -> Int? {
        guard let spec = me_object_find_property(pointer, property) else { return nil }
        var gvalue = GValue()
        g_value_init(&gvalue, spec.pointee.value_type)
        defer { g_value_unset(&gvalue) }
        g_object_get_property(gcast(pointer), property, &gvalue)
        let type = g_type_fundamental(spec.pointee.value_type)
        switch type {
        case me_type_int(): return Int(g_value_get_int(&gvalue))
        case me_type_uint(): return Int(g_value_get_uint(&gvalue))
        case me_type_long(): return Int(g_value_get_long(&gvalue))
        case me_type_ulong(): return Int(g_value_get_ulong(&gvalue))
        case me_type_int64(): return Int(g_value_get_int64(&gvalue))
        case me_type_uint64(): return Int(clamping: g_value_get_uint64(&gvalue))
        case me_type_enum(): return Int(g_value_get_enum(&gvalue))
        case me_type_flags(): return Int(g_value_get_flags(&gvalue))
        default: return nil
        }
    }

    /// Reads an object property that holds an element (playbin's "source", say).
    func element(_ property: String) -> Element? {
        guard let spec = me_object_find_property(pointer, property),
            g_type_is_a(spec.pointee.value_type, gst_element_get_type()) != 0
        else { return nil }
        var gvalue = GValue()
        g_value_init(&gvalue, spec.pointee.value_type)
        defer { g_value_unset(&gvalue) }
        g_object_get_property(gcast(pointer), property, &gvalue)
        guard let object = g_value_dup_object(&gvalue) else { return nil }
        return Element(owning: object.assumingMemoryBound(to: GstElement.self))
    }

    /// Stores `value` into an initialised GValue; returns why it does not fit, or nil.
    private static func store(_ value: PropertyValue, into gvalue: inout GValue) -> String? {
        let type = g_type_fundamental(me_value_type(&gvalue))
        switch (value, type) {
        case (.bool(let flag), me_type_boolean()):
            g_value_set_boolean(&gvalue, flag ? 1 : 0)
        case (.int(let number), _) where isInteger(type):
            return storeInteger(number, into: &gvalue, fundamental: type)
        case (.int(let number), me_type_double()):
            g_value_set_double(&gvalue, Double(number))
        case (.int(let number), me_type_float()):
            g_value_set_float(&gvalue, Float(number))
        case (.double(let number), me_type_double()):
            g_value_set_double(&gvalue, number)
        case (.double(let number), me_type_float()):
            g_value_set_float(&gvalue, Float(number))
        case (.string(let text), me_type_string()):
            g_value_set_string(&gvalue, text)
        case (.strings(let texts), _) where me_value_type(&gvalue) == g_strv_get_type():
            // A NULL-terminated array of copies from GLib's allocator, owned (and freed with
            // g_strfreev) by the GValue.
            let slot = MemoryLayout<UnsafeMutablePointer<gchar>?>.stride
            let array = g_malloc0(gsize(slot * (texts.count + 1)))
                .bindMemory(to: UnsafeMutablePointer<gchar>?.self, capacity: texts.count + 1)
            for (index, text) in texts.enumerated() { array[index] = g_strdup(text) }
            array[texts.count] = nil
            g_value_take_boxed(&gvalue, array)
        case (.string(let text), _):
            // Enums by nick, flags, caps, fractions, structures: parse as gst-launch-1.0 does.
            guard gst_value_deserialize(&gvalue, text) != 0 else { return "cannot read '\(text)' as one" }
        default:
            return "\(value) does not fit"
        }
        return nil
    }

    private static func isInteger(_ type: GType) -> Bool {
        [
            me_type_int(), me_type_uint(), me_type_long(), me_type_ulong(), me_type_int64(), me_type_uint64(),
            me_type_char(), me_type_uchar(), me_type_enum(), me_type_flags(),
        ].contains(type)
    }

    private static func storeInteger(_ number: Int, into gvalue: inout GValue, fundamental type: GType) -> String? {
        func outOfRange() -> String { "\(number) is out of range" }
        switch type {
        case me_type_int():
            guard let v = gint(exactly: number) else { return outOfRange() }
            g_value_set_int(&gvalue, v)
        case me_type_uint():
            guard let v = guint(exactly: number) else { return outOfRange() }
            g_value_set_uint(&gvalue, v)
        case me_type_long():
            g_value_set_long(&gvalue, glong(number))
        case me_type_ulong():
            guard let v = gulong(exactly: number) else { return outOfRange() }
            g_value_set_ulong(&gvalue, v)
        case me_type_int64():
            g_value_set_int64(&gvalue, gint64(number))
        case me_type_uint64():
            guard let v = guint64(exactly: number) else { return outOfRange() }
            g_value_set_uint64(&gvalue, v)
        case me_type_char():
            guard let v = gint8(exactly: number) else { return outOfRange() }
            g_value_set_schar(&gvalue, v)
        case me_type_uchar():
            guard let v = guchar(exactly: number) else { return outOfRange() }
            g_value_set_uchar(&gvalue, v)
        case me_type_enum():
            guard let v = gint(exactly: number) else { return outOfRange() }
            g_value_set_enum(&gvalue, v)
        case me_type_flags():
            guard let v = guint(exactly: number) else { return outOfRange() }
            g_value_set_flags(&gvalue, v)
        default:
            return "\(number) does not fit"
        }
        return nil
    }
}
