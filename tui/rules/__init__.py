"""Rules summaries shown by the rules screen, one Markdown file per game."""
