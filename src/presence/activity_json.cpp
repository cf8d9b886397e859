// Placeholder created for the rich presence work; filled in by it.
