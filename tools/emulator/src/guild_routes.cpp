// Placeholder created for the emulator guilds work; filled in by it.
