# Shared by the consumer projects: reach tile.h the way the driver says.
#   -DTILE_CONSUMER_MODE=subdir  -DTILE_SOURCE_DIR=<repo>   add_subdirectory
#   -DTILE_CONSUMER_MODE=package -DCMAKE_PREFIX_PATH=<prefix>  find_package
if(TILE_CONSUMER_MODE STREQUAL "package")
    find_package(tile 0.1 REQUIRED CONFIG)
else()
    add_subdirectory(${TILE_SOURCE_DIR} tile)
endif()
