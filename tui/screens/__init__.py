"""The screens that are not a game's table: start, end, help, rules and small dialogs."""
