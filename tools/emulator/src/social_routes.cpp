// Placeholder created for the emulator social work; filled in by it.
