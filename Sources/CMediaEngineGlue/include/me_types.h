// GType constants and GObject/GValue macros, which Swift cannot import: G_TYPE_* and the
// G_OBJECT_* / GST_IS_* checks are macros with casts (types.c). Every name of the engine's C is
// prefixed `me_` so it never collides with GStreamer's own symbols.
#pragma once
#include <gst/gst.h>

// MARK: GType constants (G_TYPE_* are macros with casts).
GType me_type_boolean(void);
GType me_type_int(void);
GType me_type_uint(void);
GType me_type_long(void);
GType me_type_ulong(void);
GType me_type_int64(void);
GType me_type_uint64(void);
GType me_type_float(void);
GType me_type_double(void);
GType me_type_string(void);
GType me_type_enum(void);
GType me_type_flags(void);
GType me_type_object(void);
GType me_type_char(void);
GType me_type_uchar(void);
/// GST_TYPE_TAG_LIST and GST_TYPE_SAMPLE.
GType me_type_tag_list(void);
GType me_type_sample(void);

// MARK: GObject and GValue macros.
/// G_VALUE_TYPE
GType me_value_type(const GValue *value);
/// G_OBJECT_TYPE
GType me_object_type(gpointer object);
/// G_OBJECT_GET_CLASS + g_object_class_find_property
GParamSpec *me_object_find_property(gpointer object, const gchar *name);
/// g_object_set (object, name, value, NULL) for an object-valued property (g_object_set is varargs).
void me_object_set_object(gpointer object, const gchar *name, gpointer value);
/// GST_IS_BIN
gboolean me_is_bin(gpointer object);
