// Xlib (Debian's libx11-dev), for the window the `window` sink shows video in. Includes only.
#pragma once
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
