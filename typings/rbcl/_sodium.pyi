lib_path: str
