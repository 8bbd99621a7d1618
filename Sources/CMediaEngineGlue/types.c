// GType constants and GObject/GValue macros for Swift (me_types.h).
#include "me_types.h"

GType me_type_boolean(void) { return G_TYPE_BOOLEAN; }
GType me_type_int(void) { return G_TYPE_INT; }
GType me_type_uint(void) { return G_TYPE_UINT; }
GType me_type_long(void) { return G_TYPE_LONG; }
GType me_type_ulong(void) { return G_TYPE_ULONG; }
GType me_type_int64(void) { return G_TYPE_INT64; }
GType me_type_uint64(void) { return G_TYPE_UINT64; }
GType me_type_float(void) { return G_TYPE_FLOAT; }
GType me_type_double(void) { return G_TYPE_DOUBLE; }
GType me_type_string(void) { return G_TYPE_STRING; }
GType me_type_enum(void) { return G_TYPE_ENUM; }
GType me_type_flags(void) { return G_TYPE_FLAGS; }
GType me_type_object(void) { return G_TYPE_OBJECT; }
GType me_type_char(void) { return G_TYPE_CHAR; }
GType me_type_uchar(void) { return G_TYPE_UCHAR; }
GType me_type_tag_list(void) { return GST_TYPE_TAG_LIST; }
GType me_type_sample(void) { return GST_TYPE_SAMPLE; }

GType me_value_type(const GValue *value) { return G_VALUE_TYPE(value); }
GType me_object_type(gpointer object) { return G_OBJECT_TYPE(object); }

GParamSpec *me_object_find_property(gpointer object, const gchar *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
}

void me_object_set_object(gpointer object, const gchar *name, gpointer value) {
    g_object_set(object, name, value, NULL);
}

gboolean me_is_bin(gpointer object) { return GST_IS_BIN(object); }
