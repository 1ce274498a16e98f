/*
 * rnn_lua.h - the recurrent cells' kernels (rnn.h) in luma.nn.native.
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_NN_RNN_LUA_H
#define LUMA_ML_NN_RNN_LUA_H

#include "core.h"

/* Adds rnn_cell and rnn_cell_backward to the table at index tidx. */
void luma_nn_register_rnn(lua_State *L, int tidx);

#endif
