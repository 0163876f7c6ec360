"""One module per subcommand; each is thin and calls the core."""
