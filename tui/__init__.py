"""The Textual application and the command line: the face of palazzo."""
