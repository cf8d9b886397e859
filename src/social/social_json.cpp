// Placeholder created for the relationships/users/guilds work; filled in by it.
