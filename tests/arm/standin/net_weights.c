/* SPDX-License-Identifier: Apache-2.0 */
#include <stdint.h>
/* w[j][i] = ((j * 40 + i) * 37) % 255 - 127 */
const int8_t net_w[8][40] = {
#define R(j) { W(j,0),W(j,1),W(j,2),W(j,3),W(j,4),W(j,5),W(j,6),W(j,7),W(j,8),W(j,9), \
  W(j,10),W(j,11),W(j,12),W(j,13),W(j,14),W(j,15),W(j,16),W(j,17),W(j,18),W(j,19), \
  W(j,20),W(j,21),W(j,22),W(j,23),W(j,24),W(j,25),W(j,26),W(j,27),W(j,28),W(j,29), \
  W(j,30),W(j,31),W(j,32),W(j,33),W(j,34),W(j,35),W(j,36),W(j,37),W(j,38),W(j,39) }
#define W(j, i) (int8_t)((((j) * 40 + (i)) * 37) % 255 - 127)
    R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7)};
