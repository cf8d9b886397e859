# Lays out the Unity package (cmake -P): package.json, README.md, Runtime/ (the C# sources and the asmdef),
# Plugins/Linux/x86_64/libplatformpp_c.so (and with WINDOWS_LIBRARY Plugins/Windows/x86_64/platformpp.dll), and a
# .meta file for each file and folder (an immutable package's
# assets need one; the GUIDs are derived from the paths, so they are stable from build to build).
#   -DSOURCE_DIR=bindings/csharp -DPACKAGE_DIR=<out> -DLIBRARY=<libplatformpp_c.so...> -DVERSION=x.y.z
#   -DSTAMP=<file touched when done> [-DWINDOWS_LIBRARY=<platformpp.dll of a Windows build>]
cmake_minimum_required(VERSION 3.25)  # script mode: IN_LIST and the other policies of the project
foreach(var SOURCE_DIR PACKAGE_DIR LIBRARY VERSION STAMP)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "make_package.cmake needs -D${var}=")
  endif()
endforeach()

file(REMOVE_RECURSE ${PACKAGE_DIR})
file(MAKE_DIRECTORY ${PACKAGE_DIR}/Runtime ${PACKAGE_DIR}/Plugins/Linux/x86_64)
set(PROJECT_VERSION ${VERSION})
configure_file(${SOURCE_DIR}/unity/package.json.in ${PACKAGE_DIR}/package.json @ONLY)
file(COPY ${SOURCE_DIR}/unity/README.md DESTINATION ${PACKAGE_DIR})
file(COPY ${SOURCE_DIR}/unity/Platformpp.asmdef DESTINATION ${PACKAGE_DIR}/Runtime)
file(COPY ${SOURCE_DIR}/Runtime/ DESTINATION ${PACKAGE_DIR}/Runtime FILES_MATCHING PATTERN "*.cs")
file(COPY_FILE ${LIBRARY} ${PACKAGE_DIR}/Plugins/Linux/x86_64/libplatformpp_c.so)
if(WINDOWS_LIBRARY)
  file(MAKE_DIRECTORY ${PACKAGE_DIR}/Plugins/Windows/x86_64)
  file(COPY_FILE ${WINDOWS_LIBRARY} ${PACKAGE_DIR}/Plugins/Windows/x86_64/platformpp.dll)
endif()

function(write_meta path body)
  file(RELATIVE_PATH relative ${PACKAGE_DIR} ${path})
  string(MD5 guid "com.platformpp.sdk/${relative}")
  file(WRITE ${path}.meta "fileFormatVersion: 2\nguid: ${guid}\n${body}")
endfunction()

# A native plugin's importer settings: the editor on one system and that system's 64-bit players, nothing else.
#   plugin_importer(OUT <Linux|Windows> <Linux64|Win64>)
function(plugin_importer out os player)
  set(exclude_linux 1)
  set(exclude_win64 1)
  if(player STREQUAL "Linux64")
    set(exclude_linux 0)
  else()
    set(exclude_win64 0)
  endif()
  set(${out} "PluginImporter:
  externalObjects: {}
  serializedVersion: 2
  iconMap: {}
  executionOrder: {}
  defineConstraints: []
  isPreloaded: 0
  isOverridable: 0
  isExplicitlyReferenced: 0
  validateReferences: 1
  platformData:
  - first:
      : Any
    second:
      enabled: 0
      settings:
        Exclude Editor: 0
        Exclude Linux64: ${exclude_linux}
        Exclude OSXUniversal: 1
        Exclude Win: 1
        Exclude Win64: ${exclude_win64}
  - first:
      Editor: Editor
    second:
      enabled: 1
      settings:
        CPU: x86_64
        DefaultValueInitialized: true
        OS: ${os}
  - first:
      Standalone: ${player}
    second:
      enabled: 1
      settings:
        CPU: x86_64
  userData: 
  assetBundleName: 
  assetBundleVariant: 
" PARENT_SCOPE)
endfunction()
plugin_importer(linux_plugin_importer Linux Linux64)
plugin_importer(windows_plugin_importer Windows Win64)

set(default_importer "DefaultImporter:\n  externalObjects: {}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n")
file(GLOB_RECURSE entries LIST_DIRECTORIES true ${PACKAGE_DIR}/*)
foreach(entry IN LISTS entries)
  if(entry MATCHES "\\.meta$")
    continue()
  elseif(IS_DIRECTORY ${entry})
    write_meta(${entry} "folderAsset: yes\n${default_importer}")
  elseif(entry MATCHES "\\.cs$")
    write_meta(${entry} "MonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  defaultReferences: []\n  executionOrder: 0\n  icon: {instanceID: 0}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n")
  elseif(entry MATCHES "\\.asmdef$")
    write_meta(${entry} "AssemblyDefinitionImporter:\n  externalObjects: {}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n")
  elseif(entry MATCHES "package\\.json$")
    write_meta(${entry} "PackageManifestImporter:\n  externalObjects: {}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n")
  elseif(entry MATCHES "\\.md$")
    write_meta(${entry} "TextScriptImporter:\n  externalObjects: {}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n")
  elseif(entry MATCHES "\\.so$")
    write_meta(${entry} "${linux_plugin_importer}")
  elseif(entry MATCHES "\\.dll$")
    write_meta(${entry} "${windows_plugin_importer}")
  else()
    message(FATAL_ERROR "no importer for ${entry}")
  endif()
endforeach()
file(TOUCH ${STAMP})
