package main

// builtins are the built-in tools' definitions, each in its own file: a
// new built-in is its definition and one entry here.
func builtins() []tool {
	return []tool{
		shellTool(),
		readFileTool(),
		listDirectoryTool(),
		searchFilesTool(),
		writeFileTool(),
		editFileTool(),
		fileOperationsTool(),
		filesystemInfoTool(),
		fetchWebpageTool(),
		webSearchTool(),
		readImageTool(),
	}
}

// builtinNamed is the built-in called name, for what reads a result
// without the toolbox (masking, events): ok is false for another tool.
func builtinNamed(name string) (tool, bool) {
	for _, t := range builtins() {
		if t.name == name {
			return t, true
		}
	}
	return tool{}, false
}

// pagesFiles reports whether results of the tool called name are windows
// of files, paged from the files themselves (pageFiles).
func pagesFiles(name string) bool {
	t, ok := builtinNamed(name)
	return ok && t.pages == pageFiles
}

// pagerName is the tool a ready paging call names: the built-in whose
// results are pages of files.
func pagerName() string {
	for _, t := range builtins() {
		if t.pages == pageFiles {
			return t.name
		}
	}
	return ""
}
