/*
 * conv_lua.h - the convolution and pooling bindings of luma.nn.native.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_CONV_LUA_H
#define LUMA_ML_CONV_LUA_H

#include "core.h"

/* Adds conv2d, conv2d_backward, pool2d and pool2d_backward to the table
 * at idx (luma.nn.native). */
void luma_nn_conv_register(lua_State *L, int idx);

#endif
