// Registers FileSource in the core's source registry when the FileSource product is linked: a
// constructor, since a Swift library has no static initializers to do it from, and it runs
// before main, before any thread. The function is FileSource's (FileSource+Registration.swift).
#include "CMediaEngineFileSourceInstall.h"

extern void me_file_source_register(void);

__attribute__((constructor)) static void install_file_source(void) { me_file_source_register(); }
