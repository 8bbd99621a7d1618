// FileSource's registration in the source registry happens in install.c's constructor; nothing
// here is for Swift.
#pragma once
